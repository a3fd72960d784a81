import { db, type Tx } from "../db/client";
import { rawJson } from "../db/raw-json";
import { env } from "../env";
import { COMPANY_SELECT, searchKeys, UTM_SELECT, type NewLead } from "./new-lead";

// Leads changed from several: a merge of duplicates into one, and an import's "fill empty
// fields" of the leads a row duplicates.

/** Thrown inside a merge's transaction when a lead it names is gone or in another team. */
export class MergeConflictError extends Error {
  override name = "MergeConflictError";
}

export type MergeRow = Omit<
  NewLead,
  "teamId" | "apiKeyId" | "formId" | "sourceId" | "currency" | "skippedPhone" | "skippedMobileNo" | "skippedWebsite" | "extraFields"
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
    data: { ...fields, ...searchKeys(fields), extraFields: rawJson(extraFields) },
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
 * Merges leads into the survivor in one transaction: the rows are locked (PostgreSQL:
 * FOR UPDATE, in id order; SQLite: the transaction holds the write lock from BEGIN
 * IMMEDIATE), read again, `build` computes the survivor's new fields from what is stored
 * now, the merged rows are deleted and the survivor updated. A lead gone or moved
 * meanwhile throws MergeConflictError and nothing changes: of two merges of the same
 * leads, the second finds them gone.
 */
export async function mergeLeadRows(options: {
  teamId: string;
  survivorId: string;
  mergedIds: readonly string[];
  build: (survivor: MergeRow, merged: MergeRow[]) => MergedLead;
  beforeCommit?: (tx: Tx) => Promise<void>;
}): Promise<void> {
  const all = [options.survivorId, ...options.mergedIds];
  await db().$transaction(
    async (tx) => {
      if (env().DATABASE_PROVIDER === "postgres") {
        for (const id of [...all].sort()) await tx.$queryRaw`SELECT 1 FROM "Lead" WHERE "id" = ${id} FOR UPDATE`;
      }
      const rows = (await tx.lead.findMany({ where: { teamId: options.teamId, id: { in: all } }, select: MERGE_SELECT })) as MergeRow[];
      const survivor = rows.find((row) => row.id === options.survivorId);
      const merged = rows.filter((row) => row.id !== options.survivorId);
      if (!survivor || merged.length !== options.mergedIds.length) {
        throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      }
      const data = options.build(survivor, merged);
      const { count } = await tx.lead.deleteMany({ where: { teamId: options.teamId, id: { in: [...options.mergedIds] } } });
      if (count !== options.mergedIds.length) throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      await tx.lead.update({
        where: { id: options.survivorId },
        data: {
          ...data,
          ...searchKeys(data),
          extraFields: rawJson(data.extraFields),
          mergedLeadIds: rawJson(data.mergedLeadIds),
        },
        select: { id: true },
      });
      await options.beforeCommit?.(tx);
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}
