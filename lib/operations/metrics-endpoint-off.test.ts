import assert from "node:assert/strict";
import { test } from "node:test";

delete process.env.METRICS_TOKEN;
const { metricsResponse } = await import("./metrics-endpoint");

test("without METRICS_TOKEN configured the metrics endpoint does not exist (404), whatever is sent", async () => {
  for (const authorization of ["", "Bearer anything-at-all-0123"]) {
    const res = await metricsResponse(new Request("http://localhost/api/metrics", { headers: authorization ? { authorization } : {} }));
    assert.equal(res.status, 404);
  }
});
