import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { barChartSvg } from "./overview-charts";

// The charts are drawn on the server and put in the page as markup (components/dashboard/
// overview-chart.tsx): a campaign's name is whatever a sender typed in utm_campaign, so every
// label must come out as text. And drawing one must not write to the server's log.

const EVIL = `<img src=x onerror=alert(1)>"'&</text><script>alert(2)</script>`;

// First: ECharts writes a warning once per process, so a later test would not see it.
test("drawing a chart logs nothing (no deprecated ECharts option on the server's log)", () => {
  const methods = (["log", "info", "warn", "error"] as const).map((name) => mock.method(console, name, () => {}));
  try {
    barChartSvg({ categories: ["a", "b"], series: [{ name: "Direct", colour: "#475569", values: [1, 2] }] });
    assert.equal(
      methods.reduce((sum, method) => sum + method.mock.callCount(), 0),
      0,
    );
  } finally {
    for (const method of methods) method.mock.restore();
  }
});

test("a label or series name with markup is drawn as text, never as markup", () => {
  for (const horizontal of [false, true]) {
    const svg = barChartSvg({
      categories: [EVIL, "spring"],
      series: [
        { name: EVIL, colour: "#1d4ed8", values: [1, 2] },
        { name: "Email", colour: "#15803d", values: [0, 1] },
      ],
      horizontal,
    });
    assert.ok(!svg.includes("<img") && !svg.includes("<script"), "no element from a label");
    assert.ok(svg.includes("&lt;img src=x onerror=alert(1)&gt;"), "the label's text is there, escaped");
  }
});
