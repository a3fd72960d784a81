import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";

// Every database access for lead sources lives here.

export const API_SOURCE_NAME = "API";

export type LeadSource = { id: string; name: string };

/**
 * Spec 2.1: the team's source with that name (case-insensitive), else the team's
 * "API" source, which every team has from creation (recreated here if it was lost).
 */
export async function resolveLeadSource(teamId: string, requested?: string): Promise<LeadSource> {
  const apiKey = API_SOURCE_NAME.toLowerCase();
  const wanted = requested?.trim().toLowerCase();
  const keys = wanted && wanted !== apiKey ? [wanted, apiKey] : [apiKey];
  // Raw: this runs on every create_lead, and a raw query costs a fraction of a model
  // query (docs/performance.md). Identical SQL on SQLite and PostgreSQL.
  const [first, second = first] = keys;
  const found = await db().$queryRaw<{ id: string; name: string; nameKey: string }[]>`
    SELECT "id", "name", "nameKey" FROM "LeadSource"
    WHERE "teamId" = ${teamId} AND ("nameKey" = ${first} OR "nameKey" = ${second})`;
  const match = found.find((s) => s.nameKey === wanted) ?? found.find((s) => s.nameKey === apiKey);
  if (match) return { id: match.id, name: match.name };
  const where = { teamId_nameKey: { teamId, nameKey: apiKey } };
  const select = { id: true, name: true };
  try {
    return await db().leadSource.upsert({ where, create: { teamId, name: API_SOURCE_NAME, nameKey: apiKey }, update: {}, select });
  } catch (error) {
    // Prisma's upsert reads, then inserts: two creates repairing the same team at once race,
    // and the loser's insert hits the unique key. The winner's row is the one to use.
    if (isUniqueViolation(error)) return db().leadSource.findUniqueOrThrow({ where, select });
    throw error;
  }
}

export async function addLeadSource(teamId: string, name: string): Promise<LeadSource> {
  const trimmed = name.trim();
  return db().leadSource.create({
    data: { teamId, name: trimmed, nameKey: trimmed.toLowerCase() },
    select: { id: true, name: true },
  });
}

export type LeadSourceRow = LeadSource & { leadCount: number; isApi: boolean };

export async function listLeadSources(teamId: string): Promise<LeadSourceRow[]> {
  const rows = await db().leadSource.findMany({
    where: { teamId },
    select: { id: true, name: true, nameKey: true, _count: { select: { leads: true } } },
    orderBy: { nameKey: "asc" },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    leadCount: row._count.leads,
    isApi: row.nameKey === API_SOURCE_NAME.toLowerCase(),
  }));
}

export type DeleteSourceResult = "deleted" | "not-found" | "protected";

/**
 * Deletes one of the team's sources; its leads move to the team's "API" source, which
 * itself can never be deleted (it is the fallback of spec 2.1).
 */
export async function deleteLeadSource(options: { teamId: string; sourceId: string }): Promise<DeleteSourceResult> {
  const source = await db().leadSource.findFirst({
    where: { id: options.sourceId, teamId: options.teamId },
    select: { id: true, nameKey: true },
  });
  if (!source) return "not-found";
  if (source.nameKey === API_SOURCE_NAME.toLowerCase()) return "protected";
  const fallback = await resolveLeadSource(options.teamId);
  return db().$transaction(async (tx) => {
    await tx.lead.updateMany({ where: { teamId: options.teamId, sourceId: source.id }, data: { sourceId: fallback.id } });
    const { count } = await tx.leadSource.deleteMany({ where: { id: source.id, teamId: options.teamId } });
    return count === 1 ? "deleted" : "not-found";
  });
}

/** The team's sources by name, without counting their leads (the lead list's filter). */
export async function listLeadSourceNames(teamId: string): Promise<LeadSource[]> {
  return db().leadSource.findMany({ where: { teamId }, select: { id: true, name: true }, orderBy: { nameKey: "asc" } });
}
