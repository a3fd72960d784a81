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
 * The leads of each status matching `filter` (its own status ignored). No filter, or the
 * owner's only: one statement, a COUNT over a LIMIT of `cap` + 1 per status on the
 * (teamId, status, seq) or (teamId, ownerId, status, seq) index, no row leaving the
 * database. Any other filter (a source, a UTM field, a search, a date range, "possible
 * duplicates only"): the newest TALLY_LIMIT + 1 matches (duplicates' scan limit included),
 * tallied by status; when they are not all the matches, every count is a lower bound (capped).
 */
export async function countLeadsByStatus(team: LeadTeam, filter: LeadFilter, cap: number): Promise<StatusCounts> {
  const others: LeadFilter = { ...filter, status: null, sort: "newest" };
  const equal = equalityFilters(others);
  if (onlyEqualityFilters(others) && coveredByStatusIndexes(equal)) return equalityCounts(team.id, equal, cap);
  // Any other filter: the status of its newest matches, read row by row; TALLY_LIMIT of them.
  const limit = Math.min(cap, TALLY_LIMIT);
  if (others.duplicatesOnly) {
    const walk = await walkLeads<ListRow & { status: string }>(team, others, {
      order: "desc",
      want: limit + 1,
      scanLimit: DUPLICATE_COUNT_SCAN_LIMIT,
      select: { status: true },
    });
    return tally(walk.rows.slice(0, limit), walk.more || walk.rows.length > limit);
  }
  // Only the status of each match, in the index order so the LIMIT stops the walk.
  const rows = await db().lead.findMany({
    where: leadWhere(team, others),
    orderBy: { seq: "desc" },
    take: limit + 1,
    select: { status: true },
  });
  return tally(rows.slice(0, limit), rows.length > limit);
}

/**
 * Matches tallied by status when no index holds both the filter's columns and the status:
 * each is a row read (a UTM campaign's 10,001 newest took the list's page from 31 ms to
 * 470 ms p50 at a million leads in the bench); beyond it the counts are lower bounds.
 */
export const TALLY_LIMIT = 1_000;

/** Whether the equality filters are the owner's at most: (teamId, status, seq) and (teamId, ownerId, status, seq) count them from the index alone. */
function coveredByStatusIndexes(equal: Partial<Record<EqualityFilterColumn, string | null>>): boolean {
  return Object.entries(equal).every(([column, value]) => value === undefined || column === "ownerId" || column === "status");
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
