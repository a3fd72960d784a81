"use client";

import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { hydrate } from "echarts/ssr/client/index";

/** The drawings already listened to: a re-render with the same SVG must not add a second listener. */
const hydrated = new WeakSet<SVGSVGElement>();

/**
 * Makes a server-drawn chart's bars links (ECharts' SSR client, 0.4 kB gzipped): a click on
 * bar `dataIndex` of series `seriesIndex` opens hrefs[seriesIndex][dataIndex]. The mouse's
 * shortcut only: the table below the chart has the same links for the keyboard.
 */
export function ChartLinks({ chartId, hrefs }: { chartId: string; hrefs: (string | null)[][] }) {
  const router = useRouter();
  const latest = useRef({ hrefs, router });
  useEffect(() => {
    latest.current = { hrefs, router };
    const box = document.getElementById(chartId);
    const svg = box?.querySelector("svg");
    if (!box || !svg || hydrated.has(svg)) return;
    hydrated.add(svg);
    hydrate(box, {
      on: {
        click: (params) => {
          if (params.ssrType !== "chart" || params.seriesIndex === undefined || params.dataIndex === undefined) return;
          const href = latest.current.hrefs[params.seriesIndex]?.[params.dataIndex];
          if (href) latest.current.router.push(href);
        },
      },
    });
    // Listened to from here on (a test clicks a bar only once its drawing says so).
    svg.setAttribute("data-links", "ready");
  }, [chartId, hrefs, router]);
  return null;
}
