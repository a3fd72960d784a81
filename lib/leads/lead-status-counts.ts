import { join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { db } from "../db/client";
import type { LeadFilter } from "./lead-filter";
import { DUPLICATE_COUNT_SCAN_LIMIT, leadWhere, onlyEqualityFilters, walkLeads, type LeadTeam, type ListRow } from "./lead-list-store";
import { equalityConditions, equalityFilters, type EqualityFilterColumn } from "./lead-store";
import { LEAD_STATUSES, type LeadStatus } from "./lead-status";

// The lead list's per-status views (docs/routing.md): how many leads of each status match
// the list's filter without its status, each counted no further than a cap, so that they
// stay cheap at a million leads.

/** `capped`: there may be more than `count`. */
export type CappedCount = { count: number; capped: boolean };
export type StatusCounts = Record<LeadStatus, CappedCount>;

/**
 * The leads of each status matching `filter` (its own status ignored). Equality filters
 * only (owner, source, …, or none): one statement, a COUNT over a LIMIT of `cap` + 1 per
 * status on the (teamId, status, seq) index (for one owner SQLite's planner may take the
 * (teamId, ownerId, seq) one instead), no row leaving the database. A search, a date
 * range or "possible duplicates only": the newest `cap` + 1 matches (the heading count's
 * walk, duplicates' scan limit included), tallied by status; when they are not all the
 * matches, every count is a lower bound (capped).
 */
export async function countLeadsByStatus(team: LeadTeam, filter: LeadFilter, cap: number): Promise<StatusCounts> {
  const others: LeadFilter = { ...filter, status: null, sort: "newest" };
  if (onlyEqualityFilters(others)) return equalityCounts(team.id, equalityFilters(others), cap);
  if (others.duplicatesOnly) {
    const walk = await walkLeads<ListRow & { status: string }>(team, others, {
      order: "desc",
      want: cap + 1,
      scanLimit: DUPLICATE_COUNT_SCAN_LIMIT,
      select: { status: true },
    });
    return tally(walk.rows.slice(0, cap), walk.more || walk.rows.length > cap);
  }
  // Only the status of each match, in the index order so the LIMIT stops the walk.
  const rows = await db().lead.findMany({
    where: leadWhere(team, others),
    orderBy: { seq: "desc" },
    take: cap + 1,
    select: { status: true },
  });
  return tally(rows.slice(0, cap), rows.length > cap);
}

/**
 * The statement of equalityCounts: UNION ALL of one capped COUNT per status rather than a
 * GROUP BY, which counts every lead of the team (≈ 100 ms at a million on SQLite, against
 * ≈ 15 ms for this) since a LIMIT cannot stop it. Column names come from fixed lists (EQUALITY_FILTER_COLUMNS,
 * LEAD_STATUSES); values are parameters.
 */
export function statusCountsQuery(teamId: string, equal: Partial<Record<EqualityFilterColumn, string | null>>, cap: number): Sql {
  const conditions = equalityConditions(teamId, { ...equal, status: undefined });
  const perStatus = LEAD_STATUSES.map(
    (status, i) =>
      sql`SELECT ${raw(`'${status}'`)} AS "status", COUNT(*) AS "count" FROM (SELECT 1 FROM "Lead" WHERE ${join(
        [...conditions, sql`"status" = ${status}`],
        " AND ",
      )} LIMIT ${cap + 1}) AS ${raw(`"s${i}"`)}`,
  );
  return join(perStatus, " UNION ALL ");
}

async function equalityCounts(
  teamId: string,
  equal: Partial<Record<EqualityFilterColumn, string | null>>,
  cap: number,
): Promise<StatusCounts> {
  const rows = await db().$queryRaw<{ status: string; count: number | bigint }[]>(statusCountsQuery(teamId, equal, cap));
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
  return Object.fromEntries(
    LEAD_STATUSES.map((status) => {
      const count = counts.get(status) ?? 0;
      return [status, count > cap ? { count: cap, capped: true } : { count, capped: false }];
    }),
  ) as StatusCounts;
}

function tally(rows: readonly { status: string }[], capped: boolean): StatusCounts {
  const counts = Object.fromEntries(LEAD_STATUSES.map((status) => [status, { count: 0, capped }])) as StatusCounts;
  for (const row of rows) {
    const count = counts[row.status as LeadStatus];
    if (count) count.count++;
  }
  return counts;
}
