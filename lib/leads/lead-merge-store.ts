import { db, type Tx } from "../db/client";
import { rawJson } from "../db/raw-json";
import { env } from "../env";
import { COMPANY_SELECT, derivedColumns, UTM_SELECT, type NewLead } from "./new-lead";

// Leads changed from several: the rows of a merge of duplicates into one (its transaction,
// rule and audit event are merge-leads.ts'), and of an import's "fill empty fields" of the
// leads a row duplicates (lib/imports/commit-batch.ts).

export type MergeRow = Omit<
  NewLead,
  | "teamId"
  | "apiKeyId"
  | "formId"
  | "connectionId"
  | "sourceId"
  | "currency"
  | "skippedPhone"
  | "skippedMobileNo"
  | "skippedWebsite"
  | "extraFields"
> & {
  id: string;
  seq: number;
  extraFields: unknown;
  mergedLeadIds: unknown;
  createdAt: Date;
};

const MERGE_SELECT = {
  id: true,
  seq: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  phoneCountryCode: true,
  phoneNational: true,
  mobileNo: true,
  mobileCountryCode: true,
  mobileNational: true,
  organization: true,
  ...COMPANY_SELECT,
  ...UTM_SELECT,
  extraFields: true,
  mergedLeadIds: true,
  createdAt: true,
} as const;

/** The fields an import's "fill empty fields" reads and writes (lib/imports/): a merge's, less its bookkeeping. */
const { seq: _seq, mergedLeadIds: _mergedLeadIds, createdAt: _createdAt, ...FILLABLE_SELECT } = MERGE_SELECT;

export type FillableLead = { id: string } & Pick<NewLead, Exclude<keyof typeof FILLABLE_SELECT, "id" | "extraFields">> & {
    extraFields: unknown;
  };

/** These leads of the team as `tx` sees them now (an import's update of duplicates). */
export function findFillableLeads(tx: Tx, teamId: string, ids: readonly string[]): Promise<FillableLead[]> {
  return tx.lead.findMany({ where: { teamId, id: { in: [...ids] } }, select: FILLABLE_SELECT }) as Promise<FillableLead[]>;
}

/** Writes an import's filled fields of one lead inside `tx`, with its search keys. */
export async function updateFilledLead(tx: Tx, teamId: string, lead: FillableLead): Promise<void> {
  const { id, extraFields, ...fields } = lead;
  await tx.lead.updateMany({
    where: { id, teamId },
    data: { ...fields, ...derivedColumns(lead), extraFields: rawJson(extraFields) },
  });
}

/** These leads of the team, newest first (the merge page). */
export function findLeadsForMerge(teamId: string, ids: readonly string[]): Promise<MergeRow[]> {
  return db().lead.findMany({ where: { teamId, id: { in: [...ids] } }, orderBy: { seq: "desc" }, select: MERGE_SELECT }) as Promise<
    MergeRow[]
  >;
}

export type MergedLead = Omit<MergeRow, "id" | "seq" | "createdAt" | "mergedLeadIds" | "extraFields"> & {
  extraFields: Record<string, unknown>;
  mergedLeadIds: string[];
};

/**
 * Locks these leads for the rest of `tx`, a merge's (PostgreSQL: FOR UPDATE, in id order,
 * so two merges of overlapping leads never wait on each other crosswise; SQLite: the
 * transaction holds the write lock from BEGIN IMMEDIATE).
 */
export async function lockLeads(tx: Tx, ids: readonly string[]): Promise<void> {
  if (env().DATABASE_PROVIDER !== "postgres") return;
  for (const id of [...ids].sort()) await tx.$queryRaw`SELECT 1 FROM "Lead" WHERE "id" = ${id} FOR UPDATE`;
}

/** These leads of the team as `tx` sees them now (a merge reads them again once locked). */
export function findMergeRows(tx: Tx, teamId: string, ids: readonly string[]): Promise<MergeRow[]> {
  return tx.lead.findMany({ where: { teamId, id: { in: [...ids] } }, select: MERGE_SELECT }) as Promise<MergeRow[]>;
}

/**
 * Moves the story of the merged leads to the survivor inside `tx`, before the merged rows go
 * (they would take their submissions and notes with them): their submissions, notes, and the
 * webhook deliveries and emails sent about them (their timeline entries; what was sent stays
 * as it was sent).
 */
export async function moveLeadStory(tx: Tx, teamId: string, mergedIds: readonly string[], survivorId: string): Promise<void> {
  const where = { teamId, leadId: { in: [...mergedIds] } };
  await tx.leadSubmission.updateMany({ where, data: { leadId: survivorId } });
  await tx.leadNote.updateMany({ where, data: { leadId: survivorId } });
  await tx.leadConsent.updateMany({ where, data: { leadId: survivorId } });
  // Double opt-in emails go with their lead: a link sent for a merged lead confirms the survivor (docs/consent.md).
  await tx.consentConfirmation.updateMany({ where, data: { leadId: survivorId } });
  await tx.job.updateMany({ where, data: { leadId: survivorId } });
  await markReturned(tx, [survivorId]);
}

/**
 * Sets each lead's returnedAt (lib/leads/repeat-match.ts lastSubmittedAt) to its latest
 * submission when it holds more than one: after a merge gathered them, or an import's rows
 * filled it. Leads with one keep null.
 */
export async function markReturned(tx: Tx, leadIds: readonly string[]): Promise<void> {
  if (!leadIds.length) return;
  const latest = await tx.leadSubmission.groupBy({
    by: ["leadId"],
    where: { leadId: { in: [...leadIds] } },
    _count: { _all: true },
    _max: { createdAt: true },
  });
  for (const { leadId, _count, _max } of latest) {
    if (_count._all > 1 && _max.createdAt)
      await tx.lead.update({ where: { id: leadId }, data: { returnedAt: _max.createdAt }, select: { id: true } });
  }
}

/** Deletes the merged leads of the team inside `tx`; returns how many were there. */
export async function deleteMergedLeads(tx: Tx, teamId: string, ids: readonly string[]): Promise<number> {
  const { count } = await tx.lead.deleteMany({ where: { teamId, id: { in: [...ids] } } });
  return count;
}

/** Writes the survivor's fields after a merge inside `tx`, with its search keys. */
export async function writeMergedLead(tx: Tx, survivorId: string, data: MergedLead): Promise<void> {
  await tx.lead.update({
    where: { id: survivorId },
    data: {
      ...data,
      ...derivedColumns(data),
      extraFields: rawJson(data.extraFields),
      mergedLeadIds: rawJson(data.mergedLeadIds),
    },
    select: { id: true },
  });
}
