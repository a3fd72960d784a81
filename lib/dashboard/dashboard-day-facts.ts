import { join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { contactBucket } from "./contact-buckets";
import type { OverviewRange } from "./overview";
import { dayOf, inRange, msToContact, num, postgres, time } from "./overview-sql";

// A range's leads counted per UTC day for Leads → Overview (issue 43, docs/attribution.md
// "Dashboard queries and their speed"): what the rollup stores for a settled day
// (lib/dashboard/dashboard-rollup.ts) and what the dashboard computes live for today and
// yesterday, by one function, so both always agree.
//
// Per day and value of each dimension: leads, contacted (firstContactedAt set), ever reached
// Qualified (status qualified now, or a lead.status_changed audit event about the lead with
// details.to "qualified": looked up by the lead's id, index AuditEvent (teamId, targetId,
// createdAt)); per campaign and owner a histogram of time to first contact
// (lib/dashboard/contact-buckets.ts).

export const DIMS = ["channelGroup", "source", "form", "connection", "apiKey", "campaign", "owner", "all"] as const;
export type Dim = (typeof DIMS)[number];
export const CONTACT_DIMS = ["campaign", "owner"] as const;
export type ContactDim = (typeof CONTACT_DIMS)[number];

/** One lead as the rollup reads it. */
type Fact = {
  day: string;
  channelGroup: string | null;
  sourceId: string | null;
  formId: string | null;
  connectionId: string | null;
  apiKeyId: string | null;
  utmCampaign: string | null;
  ownerId: string | null;
  /** Milliseconds to first contact; null: never contacted. */
  ms: number | null;
  q: number | bigint;
};

/** Each dimension's key of a lead ("" for none). */
const KEY_OF: Record<Dim, (fact: Fact) => string | null> = {
  channelGroup: (f) => f.channelGroup,
  source: (f) => f.sourceId,
  form: (f) => f.formId,
  connection: (f) => f.connectionId,
  apiKey: (f) => f.apiKeyId,
  campaign: (f) => f.utmCampaign,
  owner: (f) => f.ownerId,
  all: () => "",
};

export type CountRow = { dim: Dim; day: string; key: string; leads: number; contacted: number; qualified: number };
export type ContactRow = { dim: ContactDim; day: string; key: string; bucket: number; n: number };
export type DayRows = { counts: CountRow[]; contact: ContactRow[] };

/** 1 when the lead (alias l) ever reached Qualified, else 0. */
function everQualified(): Sql {
  const toQualified = raw(postgres() ? `a."details"->>'to' = 'qualified'` : `json_extract(a."details", '$.to') = 'qualified'`);
  // SQLite, without statistics, would walk the team's status changes (teamId, action, …) per lead.
  const byLead = raw(postgres() ? "" : ` INDEXED BY "AuditEvent_teamId_targetId_createdAt_idx"`);
  return sql`CASE WHEN l."status" = 'qualified' OR EXISTS (SELECT 1 FROM "AuditEvent" AS a${byLead} WHERE a."teamId" = l."teamId"
    AND a."targetId" = l."id" AND a."action" = 'lead.status_changed' AND ${toQualified}) THEN 1 ELSE 0 END`;
}

/** The team's leads in the range, one row each with what the rollup counts (a stored day's recompute). */
export function factsSql(teamId: string, range: OverviewRange): Sql {
  return sql`SELECT ${dayOf('l."createdAt"')} AS "day", l."channelGroup", l."sourceId", l."formId", l."connectionId", l."apiKeyId",
      l."utmCampaign", l."ownerId", CASE WHEN l."firstContactedAt" IS NULL THEN NULL ELSE ${msToContact("l.")} END AS "ms",
      ${everQualified()} AS "q"
    FROM "Lead" AS l WHERE ${inRange(teamId, range, "l.")}`;
}

/** Each dimension's column on Lead (all: none). */
const DIM_COLUMNS: Record<Dim, string | null> = {
  channelGroup: "channelGroup",
  source: "sourceId",
  form: "formId",
  connection: "connectionId",
  apiKey: "apiKeyId",
  campaign: "utmCampaign",
  owner: "ownerId",
  all: null,
};

const keyOf = (dim: Dim) => raw(DIM_COLUMNS[dim] ? `COALESCE(l."${DIM_COLUMNS[dim]}", '')` : `''`);

/**
 * The live part's rows of one dimension, counted in the database (what rollUp counts, as SQL):
 * per UTC day and key, leads, contacted and (when `qualified`, else 0) ever qualified. Ever
 * qualified here: qualified now, plus the leads not qualified now named by a to-Qualified status
 * change since the part's start (an event always follows its lead's creation), each found by its
 * id: a few lookups instead of one per lead (CROSS JOIN: SQLite keeps the events as the outer loop).
 */
export function liveCountsSql(teamId: string, range: OverviewRange, dim: Dim, qualified: boolean): Sql {
  const counts = sql`SELECT ${dayOf('l."createdAt"')} AS "day", ${keyOf(dim)} AS "key", COUNT(*) AS "leads",
      SUM(CASE WHEN l."firstContactedAt" IS NULL THEN 0 ELSE 1 END) AS "contacted",
      SUM(CASE WHEN l."status" = 'qualified' THEN 1 ELSE 0 END) AS "qualified"
    FROM "Lead" AS l WHERE ${inRange(teamId, range, "l.")} GROUP BY 1, 2`;
  if (!qualified) return counts;
  const toQualified = raw(postgres() ? `"details"->>'to' = 'qualified'` : `json_extract("details", '$.to') = 'qualified'`);
  const before = sql`SELECT ${dayOf('l."createdAt"')} AS "day", ${keyOf(dim)} AS "key", 0 AS "leads", 0 AS "contacted", COUNT(*) AS "qualified"
    FROM (SELECT DISTINCT "targetId" AS "id" FROM "AuditEvent" WHERE "teamId" = ${teamId} AND "action" = 'lead.status_changed'
      AND "createdAt" >= ${time(range.from)} AND ${toQualified}) AS q
    CROSS JOIN "Lead" AS l WHERE l."id" = q."id" AND ${inRange(teamId, range, "l.")} AND l."status" <> 'qualified' GROUP BY 1, 2`;
  return sql`SELECT u."day", u."key", SUM(u."leads") AS "leads", SUM(u."contacted") AS "contacted", SUM(u."qualified") AS "qualified"
    FROM (${counts} UNION ALL ${before}) AS u GROUP BY u."day", u."key"`;
}

/** The live part's times to first contact (ms) of these keys of a dimension, one row per contacted lead. */
export function liveContactSql(teamId: string, range: OverviewRange, dim: ContactDim, keys: string[]): Sql {
  return sql`SELECT ${keyOf(dim)} AS "key", ${msToContact("l.")} AS "ms" FROM "Lead" AS l
    WHERE ${inRange(teamId, range, "l.")} AND l."firstContactedAt" IS NOT NULL AND ${keyOf(dim)} IN (${join(keys)})`;
}

/** The leads' rows per day and dimension (a day without leads has none); `dims`: only these dimensions' (the live part reads one at a time). */
export function rollUp(facts: readonly Fact[], dims: readonly Dim[] = DIMS): DayRows {
  const counts = new Map<string, CountRow>();
  const contact = new Map<string, ContactRow>();
  for (const fact of facts) {
    const contacted = fact.ms !== null && fact.ms !== undefined;
    const qualified = num(fact.q) > 0;
    const bucket = contacted ? contactBucket(Number(fact.ms)) : 0;
    for (const dim of dims) {
      const key = KEY_OF[dim](fact) ?? "";
      const id = `${dim}\u0000${fact.day}\u0000${key}`;
      let row = counts.get(id);
      if (!row) counts.set(id, (row = { dim, day: fact.day, key, leads: 0, contacted: 0, qualified: 0 }));
      row.leads += 1;
      if (contacted) row.contacted += 1;
      if (qualified) row.qualified += 1;
      if (!contacted || (dim !== "campaign" && dim !== "owner")) continue;
      const bucketId = `${id}\u0000${bucket}`;
      const cell = contact.get(bucketId);
      if (cell) cell.n += 1;
      else contact.set(bucketId, { dim, day: fact.day, key, bucket, n: 1 });
    }
  }
  return { counts: [...counts.values()], contact: [...contact.values()] };
}

export type { Fact as DayFact };
