import type pg from "pg";
import type { Db, Tx } from "../db/client";
import { databaseProvider } from "../db/database-url";
import { env } from "../env";

// Where lead numbers come from (docs/api.md "Lead ids"; the id is formatLeadId(number)).
// SQLite: the "lead" Counter row, advanced in the lead's transaction (one writer at a time:
// no gap, no reuse). PostgreSQL: the "LeadNumber" sequence (migration
// 20261206000201_lead_number_sequence), so a create locks no row that every other create
// waits for; a number is never issued twice (the sequence is never rolled back, and survives
// restarts and crashes), a rolled-back create leaves a gap, and across concurrent transactions
// a higher number is not always a later commit. The lead writer's statements use
// nextLeadNumberSql; this file reads and raises the last number issued (copies, the bench,
// tests).

/** The PostgreSQL sequence lead numbers come from. */
export const LEAD_NUMBER_SEQUENCE = "LeadNumber";

/** PostgreSQL: the expression that takes the next lead number (an integer), outside any row lock. */
export const nextLeadNumberSql = `nextval('"${LEAD_NUMBER_SEQUENCE}"')::int4`;

/** The PostgreSQL statement that takes `count` (a number or a parameter) lead numbers, in increasing order. */
export const nextLeadNumbersSql = (count: string) => `SELECT ${nextLeadNumberSql} AS "value" FROM generate_series(1, ${count}) ORDER BY 1`;

/**
 * The lead numbers' barrier: every PostgreSQL batch of the lead writer takes this advisory lock
 * shared before it takes a number and holds it to its end; leadNumbersSettled takes it
 * exclusive for a moment. The key is a constant of this file (64 bits; persons' locks are
 * SHA-256 hashes: lead-writer-postgres.ts).
 */
const LEAD_NUMBER_BARRIER = 0x4c6561644e756d62n; // "LeadNumb"
export const LEAD_NUMBER_BARRIER_SQL = `SELECT pg_advisory_xact_lock_shared(${LEAD_NUMBER_BARRIER})`;

type Client = Db | Tx;

/**
 * PostgreSQL: the lead writers' order lock, the "lead" Counter row FOR UPDATE (held to the
 * commit). Every writer that locks existing leads' rows (a repeat submission's join, a
 * release, an import's batch that fills duplicates) or takes an import's round-robin turns
 * takes it before any of those rows (batchLocksSql in lead-writer-postgres.ts, lockLeadWriters
 * below), so two of them queue for each other instead of each holding what the other waits for.
 */
export const LEAD_WRITERS_LOCK_SQL = `SELECT 1 FROM "Counter" WHERE "name" = 'lead' FOR UPDATE`;

const postgres = (url?: string) => (url ? databaseProvider(url) : env().DATABASE_PROVIDER) === "postgres";

/** The last lead number issued (0: none yet). Every later lead gets a higher one. */
export async function lastLeadNumber(client: Client, url?: string): Promise<number> {
  if (postgres(url)) {
    const [row] = await client.$queryRawUnsafe<{ last: number | bigint }[]>(
      `SELECT CASE WHEN "is_called" THEN "last_value" ELSE "last_value" - 1 END AS "last" FROM "${LEAD_NUMBER_SEQUENCE}"`,
    );
    return Number(row!.last);
  }
  const row = await client.counter.findUnique({ where: { name: "lead" } });
  return row?.value ?? 0;
}

/**
 * Makes every lead number issued from now on higher than `last` (a copy's source's last
 * number, the bench's preloaded rows); never lowers it. PostgreSQL's setval is not undone by
 * a rollback: a failed copy leaves the target's numbers raised, never reused.
 */
export async function raiseLeadNumber(client: Client, last: number, url?: string): Promise<void> {
  if (postgres(url)) {
    // Only upwards: a number taken meanwhile is at most `last`, or higher than the read one.
    await client.$queryRawUnsafe(
      `SELECT setval('"${LEAD_NUMBER_SEQUENCE}"', $1::int4, true) FROM "${LEAD_NUMBER_SEQUENCE}"
       WHERE $1::int4 > CASE WHEN "is_called" THEN "last_value" ELSE "last_value" - 1 END`,
      last,
    );
    return;
  }
  await client.$executeRawUnsafe(
    `INSERT INTO "Counter" ("name", "value") VALUES ('lead', ?) ON CONFLICT ("name") DO UPDATE SET "value" = max("value", excluded."value")`,
    last,
  );
}

/**
 * Inside `tx`, before it locks any existing lead's row or a round robin's rule: the lead
 * writers' order lock (LEAD_WRITERS_LOCK_SQL) on PostgreSQL; nothing on SQLite, whose
 * transaction holds the database's write lock from its start.
 */
export async function lockLeadWriters(tx: Tx): Promise<void> {
  if (postgres()) await tx.$queryRawUnsafe(LEAD_WRITERS_LOCK_SQL);
}

/**
 * The last lead number issued, once every lead with that number or a lower one has committed
 * or rolled back: a reader that walks leads in number order (the New-lead reminder's
 * watermark) passes none that commits later. SQLite: the counter's value (one writer: numbers
 * commit in order). PostgreSQL: the sequence's value, then the barrier taken exclusive in a
 * transaction of its own, which waits for the lead writer's batches holding it (each took it
 * before its numbers) and holds the next ones back only until it commits, at once.
 * An import's batch (writeLeadBatch) takes no barrier: the reminder never reminds of its leads.
 * Not for an open transaction's `tx`: call it before, on `db()`.
 */
export async function settledLeadNumber(client: Db): Promise<number> {
  const last = await lastLeadNumber(client);
  if (postgres())
    await client.$transaction([client.$queryRawUnsafe(`SELECT 1 AS "settled" FROM pg_advisory_xact_lock(${LEAD_NUMBER_BARRIER})`)]);
  return last;
}

/**
 * PostgreSQL, inside the caller's open transaction on `client`: `count` consecutive lead
 * numbers at once (the bench's preloaded rows), the first returned. ALTER SEQUENCE locks the
 * sequence against every nextval until the caller commits: creates wait that long.
 */
export async function reserveLeadNumbersPostgres(client: { query: pg.ClientBase["query"] }, count: number): Promise<number> {
  await client.query(`ALTER SEQUENCE "${LEAD_NUMBER_SEQUENCE}" INCREMENT BY ${Math.trunc(count)}`);
  const { rows } = await client.query<{ last: number }>(`SELECT nextval('"${LEAD_NUMBER_SEQUENCE}"')::int4 AS "last"`);
  await client.query(`ALTER SEQUENCE "${LEAD_NUMBER_SEQUENCE}" INCREMENT BY 1`);
  return rows[0]!.last - Math.trunc(count) + 1;
}
