import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { actorOf, lead, makeTeam } from "../leads/lead-ownership.fixtures";
import { setLeadStatus } from "../leads/lead-ownership";
import { ensureRollup } from "./dashboard-rollup";
import { DAY_MS, dayStart, isoDay } from "./overview-sql";
import { statusFunnel } from "./overview-store";

// PostgreSQL's recompute race (docs/attribution.md "Dashboard queries and their speed"): a day's
// recompute takes LOCK TABLE "Lead" IN SHARE MODE, so a write to Lead can never commit between
// the recompute's read of the day and its clearing of the stale mark. Both orders are shown: a
// writer in flight when the recompute starts is waited for and counted; a writer that starts
// while the recompute holds the lock waits, and its stale mark is written after and survives.
// (SQLite: the recompute is a write transaction, BEGIN IMMEDIATE, and writers are serialized.)

const database = await useTestDatabase({ provider: "postgres" });

const { team, owner } = await makeTeam();
const actor = actorOf(owner);
const D = new Date(dayStart(new Date()).getTime() - 6 * DAY_MS);
const dayRange = { from: D, to: new Date(D.getTime() + DAY_MS) };

async function leadOnD(): Promise<string> {
  const id = await lead(team.id);
  await db().lead.update({ where: { id }, data: { createdAt: new Date(D.getTime() + 3_600_000) } });
  return id;
}

const stale = async () => !!(await db().dashboardDayStale.findUnique({ where: { teamId_day: { teamId: team.id, day: isoDay(D) } } }));

async function client(): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: database.url });
  await connection.connect();
  return connection;
}

/** Until some session waits for a lock on "Lead" (a condition, not a time), or `done` says the other side finished. */
async function someoneWaitsForLead(observer: pg.Client, done: () => boolean = () => false): Promise<void> {
  while (!done()) {
    const { rows } = await observer.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'Lead' AND NOT l.granted`,
    );
    if (Number(rows[0]!.n) > 0) return;
  }
}

test("a writer in flight when a recompute starts is waited for, and its lead is in the recomputed day", async () => {
  const first = await leadOnD();
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  await setLeadStatus({ teamId: team.id, leadIds: [first], status: "contacted", actor });
  assert.equal(await stale(), true);

  const writer = await client();
  const observer = await client();
  try {
    await writer.query("BEGIN");
    await writer.query(
      `INSERT INTO "Lead" ("id", "seq", "teamId", "firstName", "organization", "sourceId", "currency", "extraFields", "createdAt")
       SELECT 'CRM-LEAD-880001', 880001, "teamId", 'In flight', '', "sourceId", "currency", "extraFields", "createdAt" FROM "Lead" WHERE "id" = $1`,
      [first],
    );
    let finished = false;
    const recompute = ensureRollup(team.id, dayRange.from, dayRange.to).finally(() => (finished = true));
    await someoneWaitsForLead(observer, () => finished);
    assert.equal(finished, false, "the recompute waits for the writer in flight");
    await writer.query("COMMIT");
    await recompute;
  } finally {
    await writer.end();
    await observer.end();
  }
  assert.equal(await stale(), false);
  // Both leads, counted by the rollup (the day is settled and clean: no recompute on this read).
  assert.equal((await statusFunnel(team.id, dayRange))[0]!.reached, 2);
});

test("a writer that starts while a recompute holds the lock waits, and the stale mark it writes after survives", async () => {
  const id = await leadOnD();
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  assert.equal(await stale(), false);

  const recompute = await client();
  const observer = await client();
  try {
    // What recomputeDay holds while it reads the day and clears its mark.
    await recompute.query("BEGIN");
    await recompute.query(`LOCK TABLE "Lead" IN SHARE MODE`);
    const change = setLeadStatus({ teamId: team.id, leadIds: [id], status: "qualified", actor });
    await someoneWaitsForLead(observer);
    assert.equal(await stale(), false, "the writer has not written yet");
    await recompute.query('DELETE FROM "DashboardDayStale" WHERE "teamId" = $1', [team.id]);
    await recompute.query("COMMIT");
    assert.equal((await change).ok, true);
  } finally {
    await recompute.end();
    await observer.end();
  }
  assert.equal(await stale(), true, "the mark written after the recompute's commit survives");
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  assert.equal((await statusFunnel(team.id, dayRange))[2]!.reached, 1);
});
