import { raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { pgTime, sqliteTime } from "../db/column-values";
import { env } from "../env";
import type { OverviewRange } from "./overview";

// What the dashboard's statements share (lib/dashboard/overview-store.ts, dashboard-rollup.ts):
// the two databases' spelling of a timestamp, a UTC day and a time to first contact.

export const DAY_MS = 24 * 60 * 60 * 1000;

export const postgres = () => env().DATABASE_PROVIDER === "postgres";

/** A timestamp parameter as each database stores it (Prisma's SQLite adapter: ISO text with +00:00; PostgreSQL: timestamp(3) in UTC). */
export function time(date: Date): Sql {
  return postgres() ? sql`CAST(${pgTime(date)} AS timestamp(3))` : sql`${sqliteTime(date)}`;
}

/** The UTC day (YYYY-MM-DD) of a timestamp column, as text. */
export function dayOf(column: string): Sql {
  return raw(postgres() ? `to_char(${column}, 'YYYY-MM-DD')` : `substr(${column}, 1, 10)`);
}

/** Milliseconds from a lead's creation to its first contact, 0 when negative (a clock step). */
export function msToContact(alias = ""): Sql {
  const created = `${alias}"createdAt"`;
  const contacted = `${alias}"firstContactedAt"`;
  return raw(
    postgres()
      ? `GREATEST(0, CAST(EXTRACT(EPOCH FROM (${contacted} - ${created})) * 1000 AS double precision))`
      : `MAX(0, ROUND((julianday(${contacted}) - julianday(${created})) * 86400000))`,
  );
}

/** The team's leads created in the range (for a WHERE clause on "Lead", optionally aliased). */
export function inRange(teamId: string, range: OverviewRange, alias = ""): Sql {
  return sql`${raw(`${alias}"teamId"`)} = ${teamId} AND ${raw(`${alias}"createdAt"`)} >= ${time(range.from)} AND ${raw(
    `${alias}"createdAt"`,
  )} < ${time(range.to)}`;
}

export const num = (value: number | bigint | string | null | undefined) => (value === null || value === undefined ? 0 : Number(value));

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** UTC midnight of the day holding `date`. */
export const dayStart = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
