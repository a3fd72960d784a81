import { db } from "../db/client";

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
  // query (README "Performance"). Identical SQL on SQLite and PostgreSQL.
  const [first, second = first] = keys;
  const found = await db().$queryRaw<{ id: string; name: string; nameKey: string }[]>`
    SELECT "id", "name", "nameKey" FROM "LeadSource"
    WHERE "teamId" = ${teamId} AND ("nameKey" = ${first} OR "nameKey" = ${second})`;
  const match = found.find((s) => s.nameKey === wanted) ?? found.find((s) => s.nameKey === apiKey);
  if (match) return { id: match.id, name: match.name };
  return db().leadSource.upsert({
    where: { teamId_nameKey: { teamId, nameKey: apiKey } },
    create: { teamId, name: API_SOURCE_NAME, nameKey: apiKey },
    update: {},
    select: { id: true, name: true },
  });
}

export async function addLeadSource(teamId: string, name: string): Promise<LeadSource> {
  const trimmed = name.trim();
  return db().leadSource.create({
    data: { teamId, name: trimmed, nameKey: trimmed.toLowerCase() },
    select: { id: true, name: true },
  });
}
