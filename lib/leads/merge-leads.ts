import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { leadIdsDetails } from "./delete-leads";
import { parseLeadId } from "./lead-id";
import {
  deleteMergedLeads,
  findMergeRows,
  lockLeads,
  moveLeadStory,
  writeMergedLead,
  type MergedLead,
  type MergeRow,
} from "./lead-merge-store";
import { moveNotes } from "./lead-note-store";
import { MERGE_FIELDS, type MergeChoices, type MergeField } from "./merge-fields";

export { MERGE_FIELDS, type MergeChoices, type MergeField };

// Merging possible duplicates into one lead (docs/leads.md "Merging"): per field the value
// of the lead the admin chose (default: the newest lead with a value), extra fields
// combined (a name with different values keeps them all, as a list), the merged leads' ids
// recorded on the survivor, their submissions and notes moved to it, the merged rows deleted, one audit
// event, one transaction.
// The rows are lead-merge-store.ts'.

export const MAX_MERGED = 20;

const filled = (value: string | null) => value !== null && value.trim() !== "";

/** The default choice of each field: the newest lead (highest seq) with a value, else the survivor. */
export function defaultChoices(survivorId: string, rows: readonly MergeRow[]): Record<MergeField, string> {
  const newestFirst = [...rows].sort((a, b) => b.seq - a.seq);
  return Object.fromEntries(
    MERGE_FIELDS.map(([field]) => [field, newestFirst.find((row) => filled(row[field]))?.id ?? survivorId]),
  ) as Record<MergeField, string>;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The extra fields of all leads, oldest first: a name every lead that has it gives the same
 * value keeps that value; otherwise its distinct values (lists flattened) in order, as a list.
 */
export function combineExtraFields(rowsOldestFirst: readonly { extraFields: unknown }[]): Record<string, unknown> {
  const seen = new Map<string, unknown[]>();
  for (const row of rowsOldestFirst) {
    const fields = row.extraFields && typeof row.extraFields === "object" && !Array.isArray(row.extraFields) ? row.extraFields : {};
    for (const [name, value] of Object.entries(fields)) seen.set(name, [...(seen.get(name) ?? []), value]);
  }
  const combined: Record<string, unknown> = {};
  for (const [name, values] of seen) {
    if (values.every((value) => sameJson(value, values[0]))) {
      combined[name] = values[0];
      continue;
    }
    const items: unknown[] = [];
    for (const item of values.flatMap((value) => (Array.isArray(value) ? value : [value]))) {
      if (!items.some((known) => sameJson(known, item))) items.push(item);
    }
    combined[name] = items;
  }
  return combined;
}

function idsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/** The survivor's fields after the merge, from what is stored now. */
export function mergedLead(survivor: MergeRow, merged: readonly MergeRow[], choices: MergeChoices): MergedLead {
  const rows = [survivor, ...merged];
  const defaults = defaultChoices(survivor.id, rows);
  const from = (field: MergeField) =>
    rows.find((row) => row.id === (choices[field] ?? defaults[field])) ?? rows.find((row) => row.id === defaults[field])!;
  const value = (field: MergeField) => from(field)[field];
  const phone = from("phone");
  const mobile = from("mobileNo");
  const firstName = value("firstName");
  const organization = value("organization");
  return {
    firstName: filled(firstName) ? firstName! : survivor.firstName,
    lastName: value("lastName"),
    email: value("email"),
    phone: phone.phone,
    phoneCountryCode: phone.phoneCountryCode,
    phoneNational: phone.phoneNational,
    mobileNo: mobile.mobileNo,
    mobileCountryCode: mobile.mobileCountryCode,
    mobileNational: mobile.mobileNational,
    organization: filled(organization) ? organization! : survivor.organization,
    jobTitle: value("jobTitle"),
    website: value("website"),
    territory: value("territory"),
    industry: value("industry"),
    annualRevenue: value("annualRevenue"),
    noOfEmployees: value("noOfEmployees"),
    utmSource: value("utmSource"),
    utmMedium: value("utmMedium"),
    utmCampaign: value("utmCampaign"),
    utmTerm: value("utmTerm"),
    utmContent: value("utmContent"),
    extraFields: combineExtraFields([...rows].sort((a, b) => a.seq - b.seq)),
    mergedLeadIds: [...new Set([...idsOf(survivor.mergedLeadIds), ...merged.flatMap((row) => [row.id, ...idsOf(row.mergedLeadIds)])])],
  };
}

/** Which leads of the team go into which, with the value of each field chosen, and who merges them. */
export type MergeRequest = { teamId: string; survivorId: string; mergedIds: readonly string[]; choices: MergeChoices; actor: AuditActor };

export type MergeResult = { ok: true } | { ok: false; error: string };

/** Thrown inside a merge's transaction when a lead it names is gone or in another team: nothing changes. */
class MergeConflictError extends Error {
  override name = "MergeConflictError";
}

/**
 * Merges leads into the survivor in one transaction: the rows are locked (lockLeads), read
 * again, the survivor's new fields computed from what is stored now, the merged leads'
 * submissions and notes moved to the survivor, the merged rows deleted, the survivor updated and the
 * audit event written. A lead gone or moved
 * meanwhile throws MergeConflictError and nothing changes: of two merges of the same
 * leads, the second finds them gone.
 */
async function mergeRows(options: MergeRequest): Promise<void> {
  const { teamId, survivorId, mergedIds } = options;
  const all = [survivorId, ...mergedIds];
  await db().$transaction(
    async (tx) => {
      await lockLeads(tx, all);
      const rows = await findMergeRows(tx, teamId, all);
      const survivor = rows.find((row) => row.id === survivorId);
      const merged = rows.filter((row) => row.id !== survivorId);
      if (!survivor || merged.length !== mergedIds.length) {
        throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      }
      const data = mergedLead(survivor, merged, options.choices);
      await moveLeadStory(tx, teamId, mergedIds, survivorId);
      await moveNotes(tx, teamId, mergedIds, survivorId);
      if ((await deleteMergedLeads(tx, teamId, mergedIds)) !== mergedIds.length) {
        throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      }
      await writeMergedLead(tx, survivorId, data);
      await recordAuditEvent(
        { teamId, action: "lead.merged", actor: options.actor, targetId: survivorId, details: leadIdsDetails(mergedIds) },
        tx,
      );
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** Merges `mergedIds` into `survivorId` with the chosen values; refused when a lead is gone meanwhile. */
export async function mergeLeads(options: MergeRequest): Promise<MergeResult> {
  // In creation order (ids are CRM-LEAD-<seq>), whatever order the form sent them in.
  const mergedIds = [...new Set(options.mergedIds)]
    .filter((id) => id !== options.survivorId)
    .sort((a, b) => (parseLeadId(a) ?? 0) - (parseLeadId(b) ?? 0));
  if (!mergedIds.length) return { ok: false, error: "Choose at least one lead to merge." };
  if (mergedIds.length > MAX_MERGED) return { ok: false, error: `At most ${MAX_MERGED} leads can be merged at once.` };
  try {
    await mergeRows({ ...options, mergedIds });
    return { ok: true };
  } catch (error) {
    if (error instanceof MergeConflictError) {
      return { ok: false, error: "One of these leads was merged or deleted meanwhile (perhaps by someone else). Nothing was changed." };
    }
    throw error;
  }
}
