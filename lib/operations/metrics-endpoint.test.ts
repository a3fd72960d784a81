import assert from "node:assert/strict";
import { test } from "node:test";

// Read once by lib/env.ts: this file's process has a token; metrics-endpoint-off.test.ts has none.
process.env.METRICS_TOKEN = "metrics-token-0123456789";
const { metricsResponse } = await import("./metrics-endpoint");
const { metrics } = await import("./metrics");

const scrape = (authorization?: string) =>
  metricsResponse(new Request("http://localhost/api/metrics", { headers: authorization ? { authorization } : {} }));

test("without the bearer token, or with another, the answer is 401 and no metric", async () => {
  for (const header of [undefined, "Bearer wrong-token-0123456789", "metrics-token-0123456789", "Basic bWV0cmljcw=="]) {
    const res = await scrape(header);
    assert.equal(res.status, 401, String(header));
    assert.doesNotMatch(await res.text(), /lead_intake/);
  }
});

test("with the token: the Prometheus text format, with the intake's metrics", async () => {
  metrics().leadsCreated.inc({ team: "acme" });
  const res = await scrape("Bearer metrics-token-0123456789");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  assert.match(text, /^lead_intake_leads_created_total\{team="acme"\} 1$/m);
  assert.match(text, /^# TYPE lead_intake_request_duration_seconds histogram$/m);
  assert.match(text, /^# TYPE lead_intake_requests_refused_total counter$/m);
});
