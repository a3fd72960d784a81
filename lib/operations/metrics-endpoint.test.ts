import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";

// Read once by lib/env.ts: this file's process has a token; metrics-endpoint-off.test.ts has none.
process.env.METRICS_TOKEN = "metrics-token-0123456789";
// The speed-to-lead gauges read the database at each scrape.
await useTestDatabase();
const { metricsResponse } = await import("./metrics-endpoint");
const { metrics } = await import("./metrics");
const { db } = await import("../db/client");
const { createTeam, deleteTeam } = await import("../teams/team-store");
const { lead } = await import("../leads/lead-ownership.fixtures");

const scrape = (authorization?: string) =>
  metricsResponse(new Request("http://localhost/api/metrics", { headers: authorization ? { authorization } : {} }));
const scrapeText = async () => (await scrape("Bearer metrics-token-0123456789")).text();

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

test("speed to lead: per team and window, the median and 90th percentile in seconds, the contacted leads, the New leads", async () => {
  const speedy = await createTeam({ slug: "speedy", name: "Speedy" });
  const quiet = await createTeam({ slug: "quiet", name: "Quiet" });
  const now = Date.now();
  // [created seconds ago, seconds to first contact (null: still New)]: 7 days: 60 120 600 →
  // median 120, 90th percentile 600; 30 days also 30 (10 days old) → 30 60 120 600: 60 and 600.
  const plan: [number, number | null][] = [
    [3_600, 60],
    [7_200, 120],
    [86_400, 600],
    [10 * 86_400, 30],
    [40 * 86_400, 5],
    [600, null],
    [60, null],
  ];
  for (const [ago, contact] of plan) {
    const createdAt = new Date(now - ago * 1000);
    await db().lead.update({
      where: { id: await lead(speedy.id) },
      data: {
        createdAt,
        status: contact === null ? "new" : "contacted",
        firstContactedAt: contact === null ? null : new Date(createdAt.getTime() + contact * 1000),
      },
    });
  }
  await lead(quiet.id);

  const text = await scrapeText();
  assert.match(text, /^# TYPE lead_intake_time_to_first_contact_seconds gauge$/m);
  assert.match(text, /^# HELP lead_intake_contacted_leads /m);
  const series = (name: string, team: string) =>
    text
      .split("\n")
      .filter((line) => line.startsWith(`${name}{team="${team}"`))
      .sort();
  assert.deepEqual(series("lead_intake_time_to_first_contact_seconds", "speedy"), [
    'lead_intake_time_to_first_contact_seconds{team="speedy",window="30d",quantile="0.5"} 60',
    'lead_intake_time_to_first_contact_seconds{team="speedy",window="30d",quantile="0.9"} 600',
    'lead_intake_time_to_first_contact_seconds{team="speedy",window="7d",quantile="0.5"} 120',
    'lead_intake_time_to_first_contact_seconds{team="speedy",window="7d",quantile="0.9"} 600',
  ]);
  assert.deepEqual(series("lead_intake_contacted_leads", "speedy"), [
    'lead_intake_contacted_leads{team="speedy",window="30d"} 4',
    'lead_intake_contacted_leads{team="speedy",window="7d"} 3',
  ]);
  assert.deepEqual(series("lead_intake_new_leads", "speedy"), ['lead_intake_new_leads{team="speedy"} 2']);
  // No contact yet: the counts, and no quantile.
  assert.deepEqual(series("lead_intake_time_to_first_contact_seconds", "quiet"), []);
  assert.deepEqual(series("lead_intake_contacted_leads", "quiet"), [
    'lead_intake_contacted_leads{team="quiet",window="30d"} 0',
    'lead_intake_contacted_leads{team="quiet",window="7d"} 0',
  ]);
  assert.deepEqual(series("lead_intake_new_leads", "quiet"), ['lead_intake_new_leads{team="quiet"} 1']);

  // A deleted team's series go at the next scrape.
  await deleteTeam(quiet.id);
  assert.doesNotMatch(await scrapeText(), /team="quiet"/);
});
