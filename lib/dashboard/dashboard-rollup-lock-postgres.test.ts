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

// PostgreSQL's recompute races (docs/attribution.md "Dashboard queries and their speed"). A day
// computed for the first time waits for the writers in flight (their triggers ran before the
// day's row existed, so they left no mark) under a short LOCK TABLE "Lead" IN SHARE MODE. A day
// recomputed later holds no writer back: it reads in one snapshot and deletes only the marks
// that snapshot saw, so a writer committing meanwhile keeps its own mark and is counted on the
// next read. (SQLite: the recompute is a write transaction, BEGIN IMMEDIATE, and writers are
// serialized.)

const database = await useTestDatabase({ provider: "postgres" });

const { team, owner } = await makeTeam();
const actor = actorOf(owner);
const D = new Date(dayStart(new Date()).getTime() - 6 * DAY_MS);
const dayRange = { from: D, to: new Date(D.getTime() + DAY_MS) };
const F = new Date(D.getTime() - DAY_MS);
const firstRange = { from: F, to: D };

async function leadOn(day: Date): Promise<string> {
  const id = await lead(team.id);
  await db().lead.update({ where: { id }, data: { createdAt: new Date(day.getTime() + 3_600_000) } });
  return id;
}

const stale = async (day = D) => (await db().dashboardDayMark.count({ where: { teamId: team.id, day: isoDay(day) } })) > 0;

/** A lead inserted in an open transaction of its own (as the lead writer's), a copy of `like` with another id. */
async function insertCopy(writer: pg.Client, like: string, seq: number): Promise<void> {
  await writer.query(
    `INSERT INTO "Lead" ("id", "seq", "teamId", "firstName", "organization", "sourceId", "currency", "extraFields", "createdAt")
     SELECT $2, $3, "teamId", 'In flight', '', "sourceId", "currency", "extraFields", "createdAt" FROM "Lead" WHERE "id" = $1`,
    [like, `CRM-LEAD-${seq}`, seq],
  );
}

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

test("a day computed for the first time waits for a writer in flight, whose trigger left no mark, and counts its lead", async () => {
  const first = await leadOn(F);
  assert.equal(await db().dashboardDay.count({ where: { teamId: team.id, day: isoDay(F) } }), 0, "F has no rollup yet");
  const writer = await client();
  const observer = await client();
  try {
    await writer.query("BEGIN");
    await insertCopy(writer, first, 880001);
    let finished = false;
    const recompute = ensureRollup(team.id, firstRange.from, firstRange.to).finally(() => (finished = true));
    await someoneWaitsForLead(observer, () => finished);
    assert.equal(finished, false, "the first computation waits for the writer in flight");
    await writer.query("COMMIT");
    await recompute;
  } finally {
    await writer.end();
    await observer.end();
  }
  assert.equal(await stale(F), false);
  // Both leads, counted by the rollup (the day is settled and clean: no recompute on this read).
  assert.equal((await statusFunnel(team.id, firstRange))[0]!.reached, 2);
});

test("a recompute of a computed day holds no writer back; a lead written meanwhile keeps its mark and is counted next time", async () => {
  const first = await leadOn(D);
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  await setLeadStatus({ teamId: team.id, leadIds: [first], status: "contacted", actor });
  assert.equal(await stale(), true);

  const writer = await client();
  const observer = await client();
  try {
    await writer.query("BEGIN");
    await insertCopy(writer, first, 880002);
    let finished = false;
    const recompute = ensureRollup(team.id, dayRange.from, dayRange.to).finally(() => (finished = true));
    await someoneWaitsForLead(observer, () => finished);
    assert.equal(finished, true, "the recompute finished while the writer's transaction was open, and nobody waited on Lead");
    await recompute;
    assert.equal(await stale(), false, "the marks the recompute saw are gone");
    const counted = (await statusFunnel(team.id, dayRange))[0]!.reached;
    await writer.query("COMMIT");
    assert.equal(await stale(), true, "the writer's own mark, committed after the recompute's snapshot, survives");
    await ensureRollup(team.id, dayRange.from, dayRange.to);
    assert.equal((await statusFunnel(team.id, dayRange))[0]!.reached, counted + 1, "its lead is counted on the next read");
  } finally {
    await writer.end();
    await observer.end();
  }
});

test("a mark committed after a recompute's snapshot survives the recompute's delete", async () => {
  const id = await leadOn(D);
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  assert.equal(await stale(), false);
  await setLeadStatus({ teamId: team.id, leadIds: [id], status: "contacted", actor });

  const recompute = await client();
  try {
    // What refreshDayPostgres does around its read: the marks of its snapshot, then their deletion.
    await recompute.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    const seen = await recompute.query<{ id: number }>(`SELECT "id" FROM "DashboardDayMark" WHERE "teamId" = $1`, [team.id]);
    assert.ok(seen.rowCount, "the status change marked the day");
    // A writer commits meanwhile, not held back.
    assert.equal((await setLeadStatus({ teamId: team.id, leadIds: [id], status: "qualified", actor })).ok, true);
    await recompute.query(`DELETE FROM "DashboardDayMark" WHERE "id" = ANY($1::int[])`, [seen.rows.map((row) => row.id)]);
    await recompute.query("COMMIT");
  } finally {
    await recompute.end();
  }
  assert.equal(await stale(), true, "the mark written after the snapshot survives");
  await ensureRollup(team.id, dayRange.from, dayRange.to);
  assert.equal((await statusFunnel(team.id, dayRange))[2]!.reached, 1);
});
