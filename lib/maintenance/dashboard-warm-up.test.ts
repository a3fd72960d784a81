import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { DAY_MS, dayStart, isoDay } from "../dashboard/overview-sql";
import { statusFunnel } from "../dashboard/overview-store";
import { lead, makeTeam } from "../leads/lead-ownership.fixtures";
import { DASHBOARD_WARM_UP_DAYS, runDashboardWarmUpJob, warmUpDashboards } from "./dashboard-warm-up";

// The dashboard rollup's warm-up (dashboard-warm-up.ts) on both databases: every team with
// leads gets its settled days of the last 180 (the 90-day view and its comparison) computed in the background, once per period
// across instances; a team without leads gets nothing; a view afterwards computes nothing.

await useTestDatabase();

const now = new Date();
const today = dayStart(now);
const daysAgo = (n: number) => new Date(today.getTime() - n * DAY_MS);

const busy = await makeTeam();
const idle = await makeTeam();
for (const n of [3, 10, 170]) {
  const id = await lead(busy.team.id);
  await db().lead.update({ where: { id }, data: { createdAt: new Date(daysAgo(n).getTime() + 3_600_000) } });
}
const days = (teamId: string) =>
  db().dashboardDay.findMany({ where: { teamId }, select: { day: true, computedAt: true }, orderBy: { day: "asc" } });

test("the warm-up computes the settled days of the last 180 of every team with leads, and none of a team without", async () => {
  assert.equal(await runDashboardWarmUpJob(now).then((run) => run?.teams), await db().team.count({ where: { leads: { some: {} } } }));
  const computed = await days(busy.team.id);
  // Before yesterday: today and yesterday are never stored.
  assert.equal(computed.length, DASHBOARD_WARM_UP_DAYS - 2);
  assert.equal(computed[0]!.day, isoDay(daysAgo(DASHBOARD_WARM_UP_DAYS - 1)));
  assert.equal(computed.at(-1)!.day, isoDay(daysAgo(2)));
  assert.equal(await db().dashboardDayMark.count({ where: { teamId: busy.team.id } }), 0, "no day left marked");
  assert.deepEqual(await days(idle.team.id), []);
  const stored = await db().dashboardDayCount.findMany({ where: { teamId: busy.team.id, dim: "all" }, select: { day: true, leads: true } });
  assert.deepEqual(
    stored
      .filter((row) => row.leads > 0)
      .map((row) => row.day)
      .sort(),
    [170, 10, 3].map((n) => isoDay(daysAgo(n))),
  );
});

test("one run per period across instances; a view after the warm-up computes nothing", async () => {
  assert.equal(await runDashboardWarmUpJob(now), null, "claimed for this period already");
  const before = await days(busy.team.id);
  const range = { from: daysAgo(DASHBOARD_WARM_UP_DAYS - 1), to: now };
  assert.equal((await statusFunnel(busy.team.id, range))[0]!.reached, 3);
  assert.deepEqual(await days(busy.team.id), before, "no day recomputed by the view");
  // The next period's run is claimed, and a day marked since is brought up to date.
  const id = await lead(busy.team.id);
  await db().lead.update({ where: { id }, data: { createdAt: new Date(daysAgo(40).getTime() + 60_000) } });
  assert.equal((await db().dashboardDayMark.count({ where: { teamId: busy.team.id, day: isoDay(daysAgo(40)) } })) > 0, true);
  await warmUpDashboards(now);
  assert.equal(await db().dashboardDayMark.count({ where: { teamId: busy.team.id } }), 0);
  assert.equal((await statusFunnel(busy.team.id, range))[0]!.reached, 4);
});
