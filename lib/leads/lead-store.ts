import { join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { db, type Tx } from "../db/client";
import { ownerIdFilter, type LeadFilter } from "./lead-filter";
import { leadChannelGroups } from "../attribution/lead-attribution";
import { searchKeys, UTM_SELECT } from "./new-lead";

// The lead's own queries: one lead, counts, deletes, an import's leads, retention and the
// search keys' refold. The list and its filters are lead-list-store.ts (the export
// lead-export-store.ts), duplicates and a person's leads duplicate-store.ts, merges and an
// import's fills lead-merge-store.ts; a new lead is written by lead-writer.ts.

/** The ids of the team's leads an import created (undo), with whether another lead was merged into each. */
export async function importedLeads(
  teamId: string,
  importId: string,
  afterSeq: number,
  take: number,
): Promise<{ id: string; seq: number; merged: boolean }[]> {
  const rows = await db().lead.findMany({
    where: { teamId, importId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
    select: { id: true, seq: true, mergedLeadIds: true },
  });
  return rows.map((row) => ({ id: row.id, seq: row.seq, merged: Array.isArray(row.mergedLeadIds) && row.mergedLeadIds.length > 0 }));
}

export function countLeads(teamId?: string): Promise<number> {
  return db().lead.count(teamId ? { where: { teamId } } : undefined);
}

/**
 * A team's lead count for display, counted no further than `cap` (COUNT over a LIMIT):
 * an exact count walks every index entry of the team, ≈ 250 ms at a million leads.
 * Raw: Prisma's `count({ take })` orders the subquery by id, which sorts every lead of
 * the team first (≈ 750 ms at a million); without an order the LIMIT stops the index walk.
 */
export async function countLeadsUpTo(
  teamId: string,
  cap: number,
  equal: Partial<Record<EqualityFilterColumn, string | null>> = {},
): Promise<{ count: number; capped: boolean }> {
  const conditions = equalityConditions(teamId, equal);
  const [row] = await db().$queryRaw<{ count: number | bigint }[]>`
    SELECT COUNT(*) AS "count" FROM (SELECT 1 FROM "Lead" WHERE ${join(conditions, " AND ")} LIMIT ${cap + 1}) AS "capped"`;
  const count = Number(row?.count ?? 0);
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

/** The SQL conditions of the team and its equality filters (column names from a fixed list only; values are parameters). */
export function equalityConditions(teamId: string, equal: Partial<Record<EqualityFilterColumn, string | null>>): Sql[] {
  const conditions = [sql`"teamId" = ${teamId}`];
  for (const column of EQUALITY_FILTER_COLUMNS) {
    const value = equal[column];
    if (value === null) conditions.push(sql`${raw(`"${column}"`)} IS NULL`);
    else if (value !== undefined) conditions.push(sql`${raw(`"${column}"`)} = ${value}`);
  }
  return conditions;
}

/** The filters that are one column's equality: the match count is then a COUNT over a LIMIT on their index. */
export const EQUALITY_FILTER_COLUMNS = [
  "sourceId",
  "utmSource",
  "utmCampaign",
  "channelGroup",
  "apiKeyId",
  "formId",
  "connectionId",
  "importId",
  "status",
  "ownerId",
] as const;
export type EqualityFilterColumn = (typeof EQUALITY_FILTER_COLUMNS)[number];

/**
 * The filter's equality conditions by column (null: IS NULL, the unassigned owner): the one
 * source of both the list's where clause and its count in SQL, so that the count never
 * ignores a filter the list applies. Every column must be named here (the Record's type).
 */
export function equalityFilters(filter: LeadFilter): Partial<Record<EqualityFilterColumn, string | null>> {
  const values: Record<EqualityFilterColumn, string | null | undefined> = {
    sourceId: filter.sourceId ?? undefined,
    utmSource: filter.utmSource ?? undefined,
    utmCampaign: filter.utmCampaign ?? undefined,
    channelGroup: filter.channelGroup ?? undefined,
    apiKeyId: filter.apiKeyId ?? undefined,
    formId: filter.formId ?? undefined,
    connectionId: filter.connectionId ?? undefined,
    importId: filter.importId ?? undefined,
    status: filter.status ?? undefined,
    ownerId: ownerIdFilter(filter),
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== ""));
}

export function findLead(options: { id: string; teamId: string }) {
  return db().lead.findFirst({
    where: { id: options.id, teamId: options.teamId },
    include: { source: { select: { name: true } } },
  });
}

/**
 * Deletes these leads of the team inside `tx` and returns the ids that existed (another
 * team's id, or a lead already gone, deletes nothing). The transaction, and what commits
 * with the deletion (the audit event, the erasure of what else names the leads), is the
 * use case's: delete-leads.ts, erase-person.ts, lead-retention.ts, an import's undo.
 */
export async function deleteLeads(tx: Tx, teamId: string, ids: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  // Chunks keep each statement under the databases' bound-parameter limits.
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = [...new Set(ids.slice(i, i + 500))];
    const found = await tx.lead.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true } });
    if (!found.length) continue;
    await tx.lead.deleteMany({ where: { teamId, id: { in: found.map((f) => f.id) } } });
    deleted.push(...found.map((f) => f.id));
  }
  return deleted;
}

/**
 * Recomputes the search keys of up to `take` leads after seq `afterSeq` (seq order) and
 * writes those that changed. Returns the last seq read, or null at the end.
 */
export async function refoldSearchKeys(afterSeq: number, take = 1_000): Promise<{ lastSeq: number | null; updated: number }> {
  const rows = await db().lead.findMany({
    where: { seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
    select: {
      id: true,
      seq: true,
      firstName: true,
      lastName: true,
      email: true,
      organization: true,
      emailKey: true,
      nameKey: true,
      lastNameKey: true,
      organizationKey: true,
    },
  });
  let updated = 0;
  for (const row of rows) {
    const keys = searchKeys(row);
    if (
      keys.emailKey === row.emailKey &&
      keys.nameKey === row.nameKey &&
      keys.lastNameKey === row.lastNameKey &&
      keys.organizationKey === row.organizationKey
    )
      continue;
    await db().lead.update({ where: { id: row.id }, data: keys, select: { id: true } });
    updated++;
  }
  return { lastSeq: rows.length === take ? rows.at(-1)!.seq : null, updated };
}

/**
 * Recomputes the channel groups of up to `take` leads after seq `afterSeq` (seq order) from
 * their fields and writes those that changed. Returns the last seq read, or null at the end.
 */
export async function rederiveChannelGroups(afterSeq: number, take = 1_000): Promise<{ lastSeq: number | null; updated: number }> {
  const rows = await db().lead.findMany({
    where: { seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
    select: { id: true, seq: true, ...UTM_SELECT, extraFields: true, channelGroup: true, firstChannelGroup: true },
  });
  let updated = 0;
  for (const row of rows) {
    const groups = leadChannelGroups(row);
    if (groups.channelGroup === row.channelGroup && groups.firstChannelGroup === row.firstChannelGroup) continue;
    await db().lead.update({ where: { id: row.id }, data: groups, select: { id: true } });
    updated++;
  }
  return { lastSeq: rows.length === take ? rows.at(-1)!.seq : null, updated };
}

/** Up to `take` ids of the team's leads whose last submission is before `cutoff` (created and returned before it), oldest first (the (teamId, createdAt) index). */
export async function expiredLeadIds(teamId: string, cutoff: Date, take: number): Promise<string[]> {
  const rows = await db().lead.findMany({
    // Its last submission before the cutoff: created before it, and not returned since (issue 41).
    where: { teamId, createdAt: { lt: cutoff }, OR: [{ returnedAt: null }, { returnedAt: { lt: cutoff } }] },
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
