import assert from "node:assert/strict";
import { test } from "node:test";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { deleteLeadsById } from "../leads/delete-leads";
import { actorOf, lead, makeTeam } from "../leads/lead-ownership.fixtures";
import { assignLeads, setLeadStatus } from "../leads/lead-ownership";
import { mergeLeads } from "../leads/merge-leads";
import { reportLeadAsSpam } from "../spam/report-spam";
import { deleteTeam } from "../teams/team-store";
import { factsSql, rollUp, type DayFact } from "./dashboard-day-facts";
import { ensureRollup, splitRange } from "./dashboard-rollup";
import { DAY_MS, dayStart, isoDay, time } from "./overview-sql";
import { spamPerDay, statusFunnel } from "./overview-store";

// The dashboard's rollup (lib/dashboard/dashboard-rollup.ts) on both databases: the triggers on
// Lead mark a computed day stale after every kind of write, through the writers' own use cases,
// and a recomputed day equals the same day counted live from the leads.

await useTestDatabase();

const { team, owner, member } = await makeTeam();
const actor = actorOf(owner);
const today = dayStart(new Date());
/** A settled day: `n` days before today (n ≥ 2). */
const daysAgo = (n: number) => new Date(today.getTime() - n * DAY_MS);
const D = daysAgo(5);
const E = daysAgo(9);

/** A lead of the team created at `at` (made the API's way, then moved to its day). */
async function leadAt(at: Date, data: { utmCampaign?: string; channelGroup?: string } = {}): Promise<string> {
  const id = await lead(team.id);
  await db().lead.update({ where: { id }, data: { createdAt: at, ...data } });
  return id;
}

const stale = async (day: Date) => (await db().dashboardDayMark.count({ where: { teamId: team.id, day: isoDay(day) } })) > 0;

const sortRows = <T extends object>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();

/** The day's stored rollup, brought up to date first, against the same day counted live. */
async function assertRollupIsLive(day: Date, message: string) {
  await ensureRollup(team.id, day, new Date(day.getTime() + DAY_MS));
  assert.equal(await stale(day), false, `${message}: no stale mark after the recompute`);
  const where = { teamId: team.id, day: isoDay(day) };
  const [counts, contact, facts] = await Promise.all([
    db().dashboardDayCount.findMany({ where, select: { dim: true, day: true, key: true, leads: true, contacted: true, qualified: true } }),
    db().dashboardDayContact.findMany({ where, select: { dim: true, day: true, key: true, bucket: true, n: true } }),
    db().$queryRaw<DayFact[]>(factsSql(team.id, { from: day, to: new Date(day.getTime() + DAY_MS) })),
  ]);
  const live = rollUp(facts);
  assert.deepEqual(sortRows(counts), sortRows(live.counts), `${message}: counts`);
  assert.deepEqual(sortRows(contact), sortRows(live.contact), `${message}: contact histograms`);
}

test("ranges split: whole days before yesterday from the rollup, yesterday, today and part days live", () => {
  const at = new Date("2026-06-10T15:00:00Z");
  const day = (text: string) => new Date(`${text}T00:00:00Z`);
  assert.deepEqual(splitRange({ from: day("2026-06-01"), to: day("2026-06-11") }, at), {
    settled: { from: day("2026-06-01"), to: day("2026-06-09") },
    live: [{ from: day("2026-06-09"), to: day("2026-06-11") }],
  });
  assert.deepEqual(splitRange({ from: new Date("2026-06-01T12:00:00Z"), to: new Date("2026-06-05T06:00:00Z") }, at), {
    settled: { from: day("2026-06-02"), to: day("2026-06-05") },
    live: [
      { from: new Date("2026-06-01T12:00:00Z"), to: day("2026-06-02") },
      { from: day("2026-06-05"), to: new Date("2026-06-05T06:00:00Z") },
    ],
  });
  assert.deepEqual(splitRange({ from: day("2026-06-09"), to: day("2026-06-11") }, at), {
    settled: null,
    live: [{ from: day("2026-06-09"), to: day("2026-06-11") }],
  });
});

test("every kind of write marks a computed day stale, and its recompute equals the day counted live", async () => {
  const a = await leadAt(new Date(D.getTime() + 9 * 3600_000), { utmCampaign: "spring", channelGroup: "Email" });
  const b = await leadAt(new Date(D.getTime() + 10 * 3600_000), { utmCampaign: "spring" });
  const c = await leadAt(new Date(D.getTime() + 11 * 3600_000));
  const d = await leadAt(new Date(D.getTime() + 12 * 3600_000));
  const e = await leadAt(new Date(E.getTime() + 12 * 3600_000));
  await assertRollupIsLive(D, "first computation");
  await assertRollupIsLive(E, "first computation of the other day");

  // A column the rollup does not read: no mark.
  await db().lead.update({ where: { id: a }, data: { firstName: "Renamed" } });
  assert.equal(await stale(D), false, "a rename marks nothing");

  assert.equal((await setLeadStatus({ teamId: team.id, leadIds: [a, b], status: "qualified", actor })).ok, true);
  assert.equal(await stale(D), true, "status to qualified");
  await assertRollupIsLive(D, "status to qualified");

  assert.equal((await setLeadStatus({ teamId: team.id, leadIds: [a], status: "junk", actor })).ok, true);
  assert.equal(await stale(D), true, "status away from qualified");
  await assertRollupIsLive(D, "status away from qualified");
  const range = { from: D, to: new Date(D.getTime() + DAY_MS) };
  assert.equal((await statusFunnel(team.id, range))[2]!.reached, 2, "junk now, once qualified: still ever qualified");

  assert.equal((await assignLeads({ teamId: team.id, leadIds: [b, c], ownerId: member.id, actor })).ok, true);
  assert.equal(await stale(D), true, "owner change");
  await assertRollupIsLive(D, "owner change");

  assert.equal(await deleteLeadsById({ teamId: team.id, ids: [d], actor }), 1);
  assert.equal(await stale(D), true, "deletion");
  await assertRollupIsLive(D, "deletion");

  assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: e, mergedIds: [c], choices: {}, actor }), { ok: true });
  assert.equal(await stale(D), true, "merge: the merged lead's day");
  await assertRollupIsLive(D, "merge");
  await assertRollupIsLive(E, "merge: the survivor's day");

  assert.equal((await reportLeadAsSpam({ teamId: team.id, leadId: b, block: false, actor })).ok, true);
  assert.equal(await stale(D), true, "moved to the quarantine");
  await assertRollupIsLive(D, "moved to the quarantine");
  // Spam per day is counted live, by the quarantine row's own time (the report's).
  const sinceD = { from: D, to: new Date(today.getTime() + DAY_MS) };
  assert.equal(
    (await spamPerDay(team.id, sinceD)).reduce((n, day) => n + day.count, 0),
    1,
    "spam per day",
  );

  // A lead written straight into a past day (an import's batch, a copy): the insert trigger.
  const seq = 990_001;
  await db()
    .$executeRaw`INSERT INTO "Lead" ("id", "seq", "teamId", "firstName", "organization", "sourceId", "currency", "extraFields", "createdAt")
    SELECT ${"CRM-LEAD-990001"}, ${seq}, "teamId", 'Late', '', "sourceId", "currency", "extraFields", ${time(new Date(D.getTime() + 3600_000))}
    FROM "Lead" WHERE "id" = ${e}`;
  assert.equal(await stale(D), true, "a lead inserted into a past day");
  await assertRollupIsLive(D, "a lead inserted into a past day");

  // Moving a lead between computed days marks both.
  await db().lead.update({ where: { id: e }, data: { createdAt: new Date(D.getTime() + 20 * 3600_000) } });
  assert.deepEqual([await stale(D), await stale(E)], [true, true], "a move marks its old and its new day");
  await assertRollupIsLive(D, "moved in");
  await assertRollupIsLive(E, "moved out");
});

test("a lead written today touches no rollup row: today is never stored", async () => {
  const before = await db().dashboardDayMark.count();
  await lead(team.id);
  assert.equal(await db().dashboardDayMark.count(), before);
  assert.equal(await db().dashboardDay.count({ where: { teamId: team.id, day: isoDay(today) } }), 0);
});

test("a team's deletion deletes its rollup", async () => {
  const other = await makeTeam();
  const id = await lead(other.team.id);
  await db().lead.update({ where: { id }, data: { createdAt: D } });
  await ensureRollup(other.team.id, D, new Date(D.getTime() + DAY_MS));
  assert.ok((await db().dashboardDayCount.count({ where: { teamId: other.team.id } })) > 0);
  await deleteTeam(other.team.id);
  const left = await db().$queryRaw<{ n: number | bigint }[]>(sql`SELECT
    (SELECT COUNT(*) FROM "DashboardDay" WHERE "teamId" = ${other.team.id}) + (SELECT COUNT(*) FROM "DashboardDayCount" WHERE "teamId" = ${other.team.id})
    + (SELECT COUNT(*) FROM "DashboardDayContact" WHERE "teamId" = ${other.team.id}) + (SELECT COUNT(*) FROM "DashboardDayMark" WHERE "teamId" = ${other.team.id}) AS "n"`);
  assert.equal(Number(left[0]!.n), 0);
});
