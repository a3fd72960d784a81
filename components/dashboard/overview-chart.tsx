import { barChartSvg, type BarSeries } from "@/lib/dashboard/overview-charts";
import { ChartLinks } from "./chart-links";

/**
 * A chart drawn on the server, as one image to assistive technology: named by `label`,
 * described by `description` (what it shows and where its numbers are); the table that
 * follows it holds the numbers. `hrefs`: the lead list behind each bar, by series and bar.
 */
export function OverviewChart({
  id,
  label,
  description,
  categories,
  series,
  hrefs,
  horizontal,
  height,
}: {
  id: string;
  label: string;
  description: string;
  categories: string[];
  series: BarSeries[];
  hrefs?: (string | null)[][];
  horizontal?: boolean;
  height?: number;
}) {
  const svg = barChartSvg({ categories, series, horizontal, height });
  return (
    <figure className="m-0">
      <div
        id={id}
        role="img"
        aria-label={label}
        aria-describedby={`${id}-description`}
        className="w-full [&_[ecmeta_ssr_type=chart]]:cursor-pointer"
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      <figcaption id={`${id}-description`} className="mt-2 text-sm text-slate-600">
        {description}
      </figcaption>
      {hrefs ? <ChartLinks chartId={id} hrefs={hrefs} /> : null}
    </figure>
  );
}
