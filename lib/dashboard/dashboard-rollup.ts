import { join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type Database from "better-sqlite3";
import type pg from "pg";
import { pgTime, sqliteTime } from "../db/column-values";
import { db } from "../db/client";
import { driver } from "../db/driver";
import { now } from "../time/clock";
import { contactBucket } from "./contact-buckets";
import {
  factsSql,
  liveContactSql,
  liveCountsSql,
  rollUp,
  DIMS,
  type ContactDim,
  type DayFact,
  type DayRows,
  type Dim,
} from "./dashboard-day-facts";
import type { OverviewRange } from "./overview";
import { DAY_MS, dayStart, isoDay, num } from "./overview-sql";

// Leads → Overview's per-team, per-UTC-day rollup (issue 43, docs/attribution.md "Dashboard
// queries and their speed"): the store of DashboardDay, DashboardDayCount, DashboardDayContact
// and DashboardDayMark. lib/dashboard/overview-store.ts reads a range through rollupReader.
//
// - Settled days (before yesterday by the app's clock, lib/time/clock.ts) come from the rollup.
//   A day without a DashboardDay row, or with a mark in DashboardDayMark (appended by the
//   triggers on Lead, migration 20261204000301_dashboard_day_marks, for every writer), is
//   recomputed first.
// - Today and yesterday, and the part of a range that is not whole days, are counted live from
//   the leads, in the database, with the same definitions (dashboard-day-facts.ts: the property
//   test holds the two ways equal), and never stored, so intake never waits on a rollup row.
// - A recompute is one transaction per day, on the database driver (as the lead writer's).
//   SQLite: a write transaction (BEGIN IMMEDIATE), which writers are serialized against anyway.
//   PostgreSQL, without holding writers back while it reads (docs/attribution.md): a per-team
//   advisory lock (one recompute of a team at a time across instances); then, for the days
//   computed for the first time only, one short transaction that creates their DashboardDay
//   rows and a mark each under LOCK TABLE "Lead" IN SHARE MODE, which waits for the writers in
//   flight (their triggers ran before the rows existed, so they left no mark) and then holds
//   new ones back for two inserts; then each the day is read and written in one REPEATABLE READ snapshot,
//   which deletes the marks that snapshot saw and no others. A writer that commits after the
//   snapshot was taken appended its own mark, which survives: the day is read again next time.

/** The rollup's models: derived from the leads, so a database copy (lib/operations/copy-database.ts) leaves them to be rebuilt. */
export const ROLLUP_MODELS: readonly string[] = ["DashboardDay", "DashboardDayCount", "DashboardDayContact", "DashboardDayMark"];

/** The days [from, to) split into those read from the rollup and the ranges computed live. */
export function splitRange(range: OverviewRange, at: Date): { settled: { from: Date; to: Date } | null; live: OverviewRange[] } {
  const settledEnd = dayStart(at).getTime() - DAY_MS;
  const firstWhole =
    dayStart(range.from).getTime() === range.from.getTime() ? range.from.getTime() : dayStart(range.from).getTime() + DAY_MS;
  const lastWhole = Math.min(dayStart(range.to).getTime(), settledEnd);
  if (range.to.getTime() <= range.from.getTime()) return { settled: null, live: [] };
  if (firstWhole >= lastWhole) return { settled: null, live: [range] };
  const live: OverviewRange[] = [];
  if (range.from.getTime() < firstWhole) live.push({ from: range.from, to: new Date(firstWhole) });
  if (lastWhole < range.to.getTime()) live.push({ from: new Date(lastWhole), to: range.to });
  return { settled: { from: new Date(firstWhole), to: new Date(lastWhole) }, live };
}

function daysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let at = from.getTime(); at < to.getTime(); at += DAY_MS) days.push(isoDay(new Date(at)));
  return days;
}

/** The settled days of [from, to) that have no rollup or a marked one. */
async function daysToCompute(teamId: string, from: Date, to: Date): Promise<string[]> {
  const where = { teamId, day: { gte: isoDay(from), lt: isoDay(to) } };
  const [present, stale] = await Promise.all([
    db().dashboardDay.findMany({ where, select: { day: true } }),
    db().dashboardDayMark.findMany({ where, select: { day: true }, distinct: ["day"] }),
  ]);
  const clean = new Set(present.map((row) => row.day));
  for (const row of stale) clean.delete(row.day);
  return daysOf(from, to).filter((day) => !clean.has(day));
}

/** A statement's rows through the driver (the hot path's way, lib/db/driver.ts): a day's leads are thousands of rows, which Prisma's raw queries map slowly. */
async function driverRows<T>(statement: Sql): Promise<T[]> {
  const database = await driver();
  if (database.provider === "sqlite")
    return database.run((connection) => connection.prepare(statement.sql).all(...statement.values) as T[]);
  return (await database.pool.query(statement.text, statement.values)).rows as T[];
}

const COUNT_COLUMNS = ["teamId", "dim", "day", "key", "leads", "contacted", "qualified"] as const;
const CONTACT_COLUMNS = ["teamId", "dim", "key", "day", "bucket", "n"] as const;

/** A day's rows as the tables' columns. */
function dayTables(teamId: string, rows: DayRows) {
  return {
    counts: rows.counts.map((row) => [teamId, row.dim, row.day, row.key, row.leads, row.contacted, row.qualified]),
    contact: rows.contact.map((row) => [teamId, row.dim, row.key, row.day, row.bucket, row.n]),
  };
}

const columnList = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(", ");

/** SQLite: one write transaction (BEGIN IMMEDIATE) on Prisma's connection, behind the adapter's lock. */
function recomputeSqlite(connection: Database.Database, teamId: string, day: string, facts: Sql): void {
  connection
    .transaction(() => {
      const present = connection.prepare(`SELECT 1 FROM "DashboardDay" WHERE "teamId" = ? AND "day" = ?`).get(teamId, day);
      const stale = connection.prepare(`SELECT 1 FROM "DashboardDayMark" WHERE "teamId" = ? AND "day" = ?`).get(teamId, day);
      if (present && !stale) return;
      const tables = dayTables(teamId, rollUp(connection.prepare(facts.sql).all(...facts.values) as DayFact[]));
      connection
        .prepare(`DELETE FROM "DashboardDayCount" WHERE "teamId" = ? AND "dim" IN (${DIMS.map(() => "?").join(", ")}) AND "day" = ?`)
        .run(teamId, ...DIMS, day);
      connection.prepare(`DELETE FROM "DashboardDayContact" WHERE "teamId" = ? AND "day" = ?`).run(teamId, day);
      const count = connection.prepare(
        `INSERT INTO "DashboardDayCount" (${columnList(COUNT_COLUMNS)}) VALUES (${COUNT_COLUMNS.map(() => "?").join(", ")})`,
      );
      for (const row of tables.counts) count.run(...row);
      const contact = connection.prepare(
        `INSERT INTO "DashboardDayContact" (${columnList(CONTACT_COLUMNS)}) VALUES (${CONTACT_COLUMNS.map(() => "?").join(", ")})`,
      );
      for (const row of tables.contact) contact.run(...row);
      connection
        .prepare(
          `INSERT INTO "DashboardDay" ("teamId", "day", "computedAt") VALUES (?, ?, ?) ON CONFLICT ("teamId", "day") DO UPDATE SET "computedAt" = excluded."computedAt"`,
        )
        .run(teamId, day, sqliteTime(now()));
      connection.prepare(`DELETE FROM "DashboardDayMark" WHERE "teamId" = ? AND "day" = ?`).run(teamId, day);
    })
    .immediate();
}

/** The rows as one INSERT of unnest()ed arrays, one per column. */
function unnestInsert(
  table: string,
  columns: readonly string[],
  types: readonly string[],
  rows: unknown[][],
): { text: string; values: unknown[][] } {
  return {
    text: `INSERT INTO "${table}" (${columnList(columns)}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(", ")})`,
    values: columns.map((_, i) => rows.map((row) => row[i])),
  };
}

/** PostgreSQL, days computed for the first time: their DashboardDay rows and a mark each, once the writers in flight have committed. */
async function createDaysPostgres(client: pg.PoolClient, teamId: string, days: string[]): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(`LOCK TABLE "Lead" IN SHARE MODE`);
    const created = await client.query<{ day: string }>(
      `INSERT INTO "DashboardDay" ("teamId", "day", "computedAt") SELECT $1, d, CAST($3 AS timestamp(3)) FROM unnest($2::text[]) AS d
       ON CONFLICT DO NOTHING RETURNING "day"`,
      [teamId, days, pgTime(now())],
    );
    if (created.rowCount)
      await client.query(`INSERT INTO "DashboardDayMark" ("teamId", "day") SELECT $1, d FROM unnest($2::text[]) AS d`, [
        teamId,
        created.rows.map((row) => row.day),
      ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** PostgreSQL, a day with a DashboardDay row: read and written in one snapshot, which deletes only the marks it saw. */
async function refreshDayPostgres(client: pg.PoolClient, teamId: string, day: string, facts: Sql): Promise<void> {
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
  try {
    const marks = await client.query<{ id: number }>(`SELECT "id" FROM "DashboardDayMark" WHERE "teamId" = $1 AND "day" = $2`, [
      teamId,
      day,
    ]);
    if (marks.rowCount) {
      const tables = dayTables(teamId, rollUp((await client.query(facts.text, facts.values)).rows as DayFact[]));
      await client.query(`DELETE FROM "DashboardDayCount" WHERE "teamId" = $1 AND "dim" = ANY($2::text[]) AND "day" = $3`, [
        teamId,
        DIMS,
        day,
      ]);
      await client.query(`DELETE FROM "DashboardDayContact" WHERE "teamId" = $1 AND "day" = $2`, [teamId, day]);
      if (tables.counts.length)
        await client.query(
          unnestInsert("DashboardDayCount", COUNT_COLUMNS, ["text", "text", "text", "text", "int", "int", "int"], tables.counts),
        );
      if (tables.contact.length)
        await client.query(
          unnestInsert("DashboardDayContact", CONTACT_COLUMNS, ["text", "text", "text", "text", "int", "int"], tables.contact),
        );
      await client.query(`UPDATE "DashboardDay" SET "computedAt" = CAST($3 AS timestamp(3)) WHERE "teamId" = $1 AND "day" = $2`, [
        teamId,
        day,
        pgTime(now()),
      ]);
      await client.query(`DELETE FROM "DashboardDayMark" WHERE "id" = ANY($1::int[])`, [marks.rows.map((row) => row.id)]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

const dayFacts = (teamId: string, day: string): Sql => {
  const from = new Date(`${day}T00:00:00Z`);
  return factsSql(teamId, { from, to: new Date(from.getTime() + DAY_MS) });
};

/**
 * PostgreSQL: the team's advisory lock (a session lock: each snapshot is taken after it is
 * granted); the days without a row created together (one short lock on Lead for them all);
 * then each day in its own snapshot.
 */
async function recomputePostgres(pool: pg.Pool, teamId: string, days: string[]): Promise<void> {
  const client = await pool.connect();
  const lockKey = `dashboard-rollup:${teamId}`;
  let locked = false;
  try {
    await client.query(`SELECT 1 AS "locked" FROM (SELECT pg_advisory_lock(hashtext($1))) AS l`, [lockKey]);
    locked = true;
    const present = await client.query<{ day: string }>(
      `SELECT "day" FROM "DashboardDay" WHERE "teamId" = $1 AND "day" = ANY($2::text[])`,
      [teamId, days],
    );
    const existing = new Set(present.rows.map((row) => row.day));
    const missing = days.filter((day) => !existing.has(day));
    if (missing.length) await createDaysPostgres(client, teamId, missing);
    for (const day of days) await refreshDayPostgres(client, teamId, day, dayFacts(teamId, day));
  } finally {
    // A connection whose unlock failed is not returned to the pool holding the lock.
    const unlocked =
      !locked ||
      (await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]).then(
        () => true,
        () => false,
      ));
    client.release(!unlocked);
  }
}

/** Recomputes these days of the team's rollup (see the top of the file for the locks). */
async function recomputeDays(teamId: string, days: string[]): Promise<void> {
  const database = await driver();
  if (database.provider === "postgres") return recomputePostgres(database.pool, teamId, days);
  for (const day of days) await database.run((connection) => recomputeSqlite(connection, teamId, day, dayFacts(teamId, day)));
}

/** One recompute per team at a time in this process: concurrent readers wait for it and then find their days done. */
const running = new Map<string, Promise<void>>();

/** Brings the team's settled days of [from, to) up to date (as of when it looked: one pass of its own). */
export async function ensureRollup(teamId: string, from: Date, to: Date): Promise<void> {
  for (;;) {
    const busy = running.get(teamId);
    if (busy) await busy.catch(() => undefined);
    const days = await daysToCompute(teamId, from, to);
    if (!days.length) return;
    if (running.has(teamId)) continue;
    const work = recomputeDays(teamId, days);
    running.set(teamId, work);
    try {
      await work;
    } finally {
      running.delete(teamId);
    }
    // Days marked again meanwhile wait for the next read: a stream of writes to past days never holds a reader here.
    return;
  }
}

/** The settled rows of one dimension: per day, or summed per key (day ""). */
export function settledCountsSql(teamId: string, from: Date, to: Date, dim: Dim, byDay: boolean): Sql {
  const where = sql`"teamId" = ${teamId} AND "dim" = ${dim} AND "day" >= ${isoDay(from)} AND "day" < ${isoDay(to)}`;
  return byDay
    ? sql`SELECT "day", "key", "leads", "contacted", "qualified" FROM "DashboardDayCount" WHERE ${where}`
    : sql`SELECT '' AS "day", "key", SUM("leads") AS "leads", SUM("contacted") AS "contacted", SUM("qualified") AS "qualified"
        FROM "DashboardDayCount" WHERE ${where} GROUP BY "key"`;
}

/** The settled histograms of these keys of a dimension, summed over the days. */
export function settledContactSql(teamId: string, from: Date, to: Date, dim: ContactDim, keys: string[]): Sql {
  return sql`SELECT "key", "bucket", SUM("n") AS "n" FROM "DashboardDayContact"
    WHERE "teamId" = ${teamId} AND "dim" = ${dim} AND "key" IN (${join(keys)}) AND "day" >= ${isoDay(from)} AND "day" < ${isoDay(to)}
    GROUP BY "key", "bucket"`;
}

type Counted = { day: string; key: string; leads: number; contacted: number; qualified: number };
export type Histograms = Map<string, Map<number, number>>;

export type RollupReader = {
  /** One dimension's leads, contacted and (when `qualified`; else 0) ever qualified, per day and key, or (byDay false) per key with day "". */
  counts: (dim: Dim, options: { byDay: boolean; qualified: boolean }) => Promise<Counted[]>;
  /** The time-to-first-contact histograms of these keys of a dimension over the range. */
  contact: (dim: ContactDim, keys: string[]) => Promise<Histograms>;
};

const counted = (row: Record<keyof Counted, string | number | bigint | null>): Counted => ({
  day: String(row.day),
  key: String(row.key ?? ""),
  leads: num(row.leads),
  contacted: num(row.contacted),
  qualified: num(row.qualified),
});

/** A reader of the team's figures for a range: its settled days brought up to date first; its live part counted in the database per dimension. */
export async function rollupReader(teamId: string, range: OverviewRange): Promise<RollupReader> {
  const { settled, live } = splitRange(range, now());
  if (settled) await ensureRollup(teamId, settled.from, settled.to);
  return {
    async counts(dim, { byDay, qualified }) {
      const [stored, ...fresh] = await Promise.all([
        settled ? db().$queryRaw<Parameters<typeof counted>[0][]>(settledCountsSql(teamId, settled.from, settled.to, dim, byDay)) : [],
        ...live.map((part) => driverRows<Parameters<typeof counted>[0]>(liveCountsSql(teamId, part, dim, qualified))),
      ]);
      const rows = [...stored, ...fresh.flat()].map(counted);
      if (byDay) return rows;
      const sums = new Map<string, Counted>();
      for (const row of rows) {
        const sum = sums.get(row.key) ?? { day: "", key: row.key, leads: 0, contacted: 0, qualified: 0 };
        sum.leads += row.leads;
        sum.contacted += row.contacted;
        sum.qualified += row.qualified;
        sums.set(row.key, sum);
      }
      return [...sums.values()];
    },
    async contact(dim, keys) {
      const histograms: Histograms = new Map(keys.map((key) => [key, new Map()]));
      const add = (key: string, bucket: number, n: number) => {
        const histogram = histograms.get(key);
        if (histogram) histogram.set(bucket, (histogram.get(bucket) ?? 0) + n);
      };
      for (let i = 0; i < keys.length; i += 500) {
        const chunk = keys.slice(i, i + 500);
        const [stored, ...fresh] = await Promise.all([
          settled
            ? db().$queryRaw<{ key: string; bucket: number | bigint; n: number | bigint }[]>(
                settledContactSql(teamId, settled.from, settled.to, dim, chunk),
              )
            : [],
          ...live.map((part) => driverRows<{ key: string; ms: number | bigint }>(liveContactSql(teamId, part, dim, chunk))),
        ]);
        for (const row of stored) add(row.key, num(row.bucket), num(row.n));
        for (const row of fresh.flat()) add(row.key, contactBucket(num(row.ms)), 1);
      }
      return histograms;
    },
  };
}

/** The teams that have at least one lead (the rollup's warm-up leaves the others alone). */
export async function teamsWithLeads(): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>(
    sql`SELECT t."id" FROM "Team" AS t WHERE EXISTS (SELECT 1 FROM "Lead" AS l WHERE l."teamId" = t."id") ORDER BY t."id"`,
  );
  return rows.map((row) => row.id);
}

/** Deletes the team's rollup (its deletion, lib/teams/team-store.ts: after its leads, whose triggers may mark days). */
export async function deleteTeamRollup(teamId: string): Promise<void> {
  await db().$transaction([
    db().dashboardDayContact.deleteMany({ where: { teamId } }),
    db().dashboardDayCount.deleteMany({ where: { teamId } }),
    db().dashboardDay.deleteMany({ where: { teamId } }),
    db().dashboardDayMark.deleteMany({ where: { teamId } }),
  ]);
}
