import * as echarts from "echarts/core";
import { BarChart } from "echarts/charts";
import { AriaComponent, GridComponent, LegendComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import { CHANNEL_GROUPS } from "../attribution/channel-groups";

// Leads → Overview's charts, drawn on the server by Apache ECharts' SSR SVG renderer
// (docs/attribution.md "The dashboard"): the page gets a finished <svg>, no charting code
// runs in the browser. Each series is a colour with at least 3:1 contrast on white (WCAG
// 1.4.11) and a pattern of its own (ECharts' decals), named in the legend; the page puts
// the same numbers in a real table beside each chart.

echarts.use([BarChart, GridComponent, LegendComponent, AriaComponent, SVGRenderer]);

/** Tailwind's 700 shades (and slate/stone for Direct and Other): each ≥ 4.5:1 on white. */
export const CHART_COLOURS = [
  "#1d4ed8", // blue-700
  "#15803d", // green-700
  "#7e22ce", // purple-700
  "#be185d", // pink-700
  "#b45309", // amber-700
  "#0e7490", // cyan-700
  "#b91c1c", // red-700
  "#4d7c0f", // lime-700
  "#475569", // slate-600
  "#57534e", // stone-600
] as const;

/** A channel group's colour, the same in every chart; other series by their order. */
export function seriesColour(key: string, index: number, byChannelGroup: boolean): string {
  const at = byChannelGroup ? CHANNEL_GROUPS.indexOf(key as (typeof CHANNEL_GROUPS)[number]) : index;
  return CHART_COLOURS[(at < 0 ? index : at) % CHART_COLOURS.length]!;
}

export type BarSeries = { name: string; colour: string; values: number[] };

const TEXT = "#334155"; // slate-700: 10.4:1 on white
const GRID_LINE = "#cbd5e1";

/**
 * A bar chart as an SVG string: stacked when there are several series, horizontal on request.
 * The drawing keeps its viewBox so it scales to its box. Each bar's path carries ECharts'
 * ecmeta_series_index / ecmeta_data_index (its SSR client reads them on a click); the
 * patterns drawn over the bars let clicks through to them.
 */
export function barChartSvg(options: {
  categories: string[];
  series: BarSeries[];
  width?: number;
  height?: number;
  horizontal?: boolean;
}): string {
  const width = options.width ?? 760;
  const height = options.height ?? 320;
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  const category = {
    type: "category" as const,
    data: options.categories,
    axisLabel: { color: TEXT, fontSize: 12 },
    axisLine: { lineStyle: { color: "#64748b" } },
  };
  const value = {
    type: "value" as const,
    minInterval: 1,
    axisLabel: { color: TEXT, fontSize: 12 },
    splitLine: { lineStyle: { color: GRID_LINE } },
  };
  const stacked = options.series.length > 1;
  chart.setOption({
    animation: false,
    aria: { enabled: true, decal: { show: true } },
    textStyle: { fontFamily: "ui-sans-serif, system-ui, sans-serif", color: TEXT },
    // Room for the axis labels inside the box (ECharts 6: what grid.containLabel did, without its legacy module).
    grid: { left: 16, right: 16, top: 16, bottom: stacked ? 56 : 16, outerBoundsMode: "same", outerBoundsContain: "axisLabel" },
    legend: stacked
      ? { bottom: 0, textStyle: { color: TEXT, fontSize: 12 }, itemWidth: 22, itemHeight: 14, type: "plain" }
      : { show: false },
    xAxis: options.horizontal ? value : category,
    yAxis: options.horizontal ? { ...category, inverse: true } : value,
    series: options.series.map((series) => ({
      type: "bar",
      name: series.name,
      data: series.values,
      stack: stacked ? "total" : undefined,
      barMaxWidth: 48,
      itemStyle: {
        color: series.colour,
        borderColor: "#ffffff",
        borderWidth: stacked ? 1 : 0,
        decal: { color: "rgba(255, 255, 255, 0.45)" },
      },
      label: options.horizontal ? { show: true, position: "right", color: TEXT, fontSize: 12 } : undefined,
    })),
  });
  const svg = chart.renderToSVGString({ useViewBox: true });
  chart.dispose();
  // The decal paths are drawn over the bars without their ecmeta attributes: let clicks
  // through to the bar beneath. The root is decorative to assistive technology: the figure
  // around it is named and described, and the table holds the numbers.
  return svg
    .replace(/<path ([^>]*fill="url\(#[^"]+\)")/g, '<path pointer-events="none" $1')
    .replace(/^<svg /, '<svg aria-hidden="true" focusable="false" class="h-auto w-full" ');
}
