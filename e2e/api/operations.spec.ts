import { expect, test } from "@playwright/test";
import { E2E_METRICS_TOKEN } from "../support/metrics-token";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Issue 15 over HTTP: the readiness probe and the Prometheus metrics of the shared server.
// (Readiness while PostgreSQL is down: e2e/postgres/fault.test.ts.)

test("GET /api/health: 200 with the database ready and Redis not configured", async () => {
  const res = await fetch(`${BASE_URL}/api/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", checks: { database: { state: "ok" }, redis: { state: "not configured" } } });
  expect(res.headers.get("cache-control")).toBe("no-store");
});

async function scrape(): Promise<string> {
  const res = await fetch(`${BASE_URL}/api/metrics`, { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("GET /api/metrics: 401 without the token; created leads, refusals and latencies move as requests are served", async () => {
  expect((await fetch(`${BASE_URL}/api/metrics`)).status).toBe(401);
  expect((await fetch(`${BASE_URL}/api/metrics`, { headers: { Authorization: "Bearer not-the-token-0000" } })).status).toBe(401);

  const { team, key } = await newTeamWithKey();
  const refusedValidation = 'lead_intake_requests_refused_total{route="create_lead",reason="validation"}';
  const refusedAuth = 'lead_intake_requests_refused_total{route="create_lead",reason="auth"}';
  const answered4xx = 'lead_intake_request_duration_seconds_count{route="create_lead",status_class="4xx"}';
  const answered2xx = 'lead_intake_request_duration_seconds_count{route="create_lead",status_class="2xx"}';
  const before = await scrape();

  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${BASE_URL}${CREATE_LEAD}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await post(authHeaders(key), { name: "Ada" })).status).toBe(201);
  expect((await post(authHeaders(key), { name: "Grace" })).status).toBe(201);
  expect((await post(authHeaders(key), { email: "nobody@example.com" })).status).toBe(422);
  expect((await post({ "X-API-Key": key.keyId, "X-API-Secret": "team_wrong" }, { name: "Ada" })).status).toBe(401);
  const after = await scrape();

  // This team's counter moves only by its own leads; the shared counters by at least ours.
  expect(
    value(after, `lead_intake_leads_created_total{team="${team.slug}"}`) -
      value(before, `lead_intake_leads_created_total{team="${team.slug}"}`),
  ).toBe(2);
  expect(value(after, refusedValidation) - value(before, refusedValidation)).toBeGreaterThanOrEqual(1);
  expect(value(after, refusedAuth) - value(before, refusedAuth)).toBeGreaterThanOrEqual(1);
  expect(value(after, answered2xx) - value(before, answered2xx)).toBeGreaterThanOrEqual(2);
  expect(value(after, answered4xx) - value(before, answered4xx)).toBeGreaterThanOrEqual(2);
  // Bounded labels only: no key id, secret or email ever appears.
  expect(after).not.toContain(key.keyId);
  expect(after).not.toContain("nobody@example.com");
});
