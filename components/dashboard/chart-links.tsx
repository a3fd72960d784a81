"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { hydrate } from "echarts/ssr/client/index";

/**
 * Makes a server-drawn chart's bars links (ECharts' SSR client, ≈ 1.3 kB): a click on bar
 * `dataIndex` of series `seriesIndex` opens hrefs[seriesIndex][dataIndex]. The mouse's
 * shortcut only: the table below the chart has the same links for the keyboard.
 */
export function ChartLinks({ chartId, hrefs }: { chartId: string; hrefs: (string | null)[][] }) {
  const router = useRouter();
  useEffect(() => {
    const box = document.getElementById(chartId);
    if (!box) return;
    hydrate(box, {
      on: {
        click: (params) => {
          if (params.ssrType !== "chart" || params.seriesIndex === undefined || params.dataIndex === undefined) return;
          const href = hrefs[params.seriesIndex]?.[params.dataIndex];
          if (href) router.push(href);
        },
      },
    });
  }, [chartId, hrefs, router]);
  return null;
}
