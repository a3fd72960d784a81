import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { rawJson } from "../db/raw-json";
import { extendLease, insertJobs, type ClaimedJob } from "../jobs/job-store";
import type { JobLease } from "../jobs/dispatcher";
import { findFillableLeads, updateFilledLead, type FillableLead } from "../leads/lead-merge-store";
import { writeLeadBatch } from "../leads/lead-writer";
import type { NewLead } from "../leads/new-lead";
import type { ColumnMapping } from "./column-mapping";

// Every database access for imports (Import, ImportRefusedRow) lives here, with the one
// transaction that commits a batch of an import (lib/imports/import-job.ts).

export type ImportStatus = "draft" | "queued" | "running" | "cancelling" | "cancelled" | "done" | "failed" | "undone";
export type DuplicatesMode = "create" | "skip" | "update";
export const DUPLICATES_MODES: readonly DuplicatesMode[] = ["skip", "update", "create"];
/** Statuses in which an import holds its team's one running slot. */
export const ACTIVE_STATUSES: readonly ImportStatus[] = ["queued", "running", "cancelling"];

export type ImportRecord = {
  id: string;
  teamId: string;
  status: ImportStatus;
  fileName: string;
  filePath: string;
  fileBytes: number;
  encoding: string;
  delimiter: string;
  headers: string[];
  mapping: ColumnMapping | null;
  duplicates: DuplicatesMode;
  sourceId: string | null;
  totalRows: number;
  cursor: number;
  createdCount: number;
  updatedCount: number;
  skippedCount: number;
  refusedCount: number;
  error: string | null;
  createdById: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  undoneAt: Date | null;
};

type Row = Awaited<ReturnType<Db["import"]["findFirstOrThrow"]>>;
type Db = ReturnType<typeof db>;

function toRecord(row: Row): ImportRecord {
  return {
    ...row,
    status: row.status as ImportStatus,
    duplicates: row.duplicates as DuplicatesMode,
    headers: row.headers as string[],
    mapping: (row.mapping as ColumnMapping | null) ?? null,
  };
}

export async function insertImport(
  data: Pick<
    ImportRecord,
    "id" | "teamId" | "fileName" | "filePath" | "fileBytes" | "encoding" | "delimiter" | "headers" | "totalRows" | "createdById"
  > & { headerSignature: string },
): Promise<ImportRecord> {
  const row = await db().import.create({ data: { ...data, headers: rawJson(data.headers) } });
  return toRecord(row);
}

export async function findImport(teamId: string, id: string): Promise<ImportRecord | null> {
  const row = await db().import.findFirst({ where: { id, teamId } });
  return row ? toRecord(row) : null;
}

/** The team's imports, newest first. */
export async function listImports(teamId: string, take = 20): Promise<ImportRecord[]> {
  const rows = await db().import.findMany({ where: { teamId }, orderBy: { createdAt: "desc" }, take });
  return rows.map(toRecord);
}

/** The team's import holding its running slot, if any. */
export async function activeImport(teamId: string): Promise<ImportRecord | null> {
  const row = await db().import.findUnique({ where: { activeTeamId: teamId } });
  return row ? toRecord(row) : null;
}

/** The headers and mapping of the team's latest started import of a file with the same headers. */
export async function lastMapping(teamId: string, headerSignature: string): Promise<{ headers: string[]; mapping: ColumnMapping } | null> {
  const row = await db().import.findFirst({
    where: { teamId, headerSignature, status: { not: "draft" } },
    orderBy: { createdAt: "desc" },
    select: { headers: true, mapping: true },
  });
  return row?.mapping ? { headers: row.headers as string[], mapping: row.mapping as ColumnMapping } : null;
}

export class ImportBusyError extends Error {
  override name = "ImportBusyError";
}

/**
 * Starts a draft import: its mapping and choices, the team's running slot (another import
 * of the team holding it: ImportBusyError) and its job, in one transaction. False when the
 * import is no draft any more (started twice).
 */
export async function queueImport(options: {
  teamId: string;
  id: string;
  mapping: ColumnMapping;
  duplicates: DuplicatesMode;
  sourceId: string | null;
  job: { id?: string; runAt: Date; maxAttempts: number };
}): Promise<boolean> {
  try {
    return await db().$transaction(async (tx) => {
      const { count } = await tx.import.updateMany({
        where: { id: options.id, teamId: options.teamId, status: "draft" },
        data: {
          status: "queued",
          activeTeamId: options.teamId,
          mapping: rawJson(options.mapping),
          duplicates: options.duplicates,
          sourceId: options.sourceId,
        },
      });
      if (count !== 1) return false;
      await insertJobs(
        [
          {
            teamId: options.teamId,
            kind: "import",
            eventId: options.id,
            eventType: "lead.import",
            payload: options.id,
            maxAttempts: options.job.maxAttempts,
            runAt: options.job.runAt,
          },
        ],
        tx,
      );
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ImportBusyError("Another import of this team is running");
    throw error;
  }
}

/** The id of the import's job (the newest, should it have been queued again). */
export async function importJobId(importId: string): Promise<string | null> {
  const job = await db().job.findFirst({
    where: { kind: "import", eventId: importId },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return job?.id ?? null;
}

/** Marks the import running (the first batch is about to be read). */
export async function markRunning(id: string, now: Date): Promise<void> {
  await db().import.updateMany({ where: { id, status: "queued" }, data: { status: "running", startedAt: now } });
}

/** Asks a queued or running import to stop after its current batch; false when it is not running. */
export async function requestCancel(teamId: string, id: string): Promise<boolean> {
  const { count } = await db().import.updateMany({
    where: { id, teamId, status: { in: ["queued", "running"] } },
    data: { status: "cancelling" },
  });
  return count === 1;
}

/** Ends an import (done, cancelled or failed): frees the team's running slot. */
export async function finishImport(
  id: string,
  status: "done" | "cancelled" | "failed",
  now: Date,
  error: string | null = null,
  tx?: Tx,
): Promise<boolean> {
  const { count } = await (tx ?? db()).import.updateMany({
    where: { id, status: { in: [...ACTIVE_STATUSES] } },
    data: { status, activeTeamId: null, finishedAt: now, error },
  });
  return count === 1;
}

/** A lead an import's batch updates (duplicates mode "update"): the fields it fills. */
export type LeadFill = { id: string; fill: (lead: FillableLead) => FillableLead | null };

export type Batch = {
  importId: string;
  teamId: string;
  /** The cursor this batch starts from; the commit is refused if it moved meanwhile. */
  from: number;
  /** Data rows this batch handled. */
  rows: number;
  leads: (NewLead & { importId: string })[];
  fills: LeadFill[];
  /** Rows that filled a lead of this same batch before its insert. */
  updatedPending: number;
  skipped: number;
  refused: { row: number; cells: string[]; reason: string }[];
};

/** The batch's commit was refused: the import's cursor moved or the job's claim was lost (another runner has it). */
export class BatchFencedError extends Error {
  override name = "BatchFencedError";
}

/**
 * Commits one batch in one short transaction: the import's cursor and counts advanced
 * (only from `from`: a second runner's batch of the same rows finds the cursor moved and
 * rolls back), the job's claim extended (only while this worker holds it), the updated
 * leads filled, the new leads inserted with consecutive ids in file order, the refused rows
 * stored. Returns the counts the batch added.
 */
export async function commitBatch(
  batch: Batch,
  claim: { job: ClaimedJob; lease: JobLease; now: Date },
): Promise<{ created: number; updated: number }> {
  return db().$transaction(
    async (tx) => {
      if (!(await extendLease(claim.job, claim.lease.workerId, new Date(claim.now.getTime() + claim.lease.leaseMs), tx))) {
        throw new BatchFencedError("The import job's claim was lost");
      }
      let updated = batch.updatedPending;
      if (batch.fills.length) {
        const current = new Map(
          (
            await findFillableLeads(
              tx,
              batch.teamId,
              batch.fills.map((f) => f.id),
            )
          ).map((lead) => [lead.id, lead]),
        );
        const changed = new Map<string, FillableLead>();
        for (const { id, fill } of batch.fills) {
          const lead = changed.get(id) ?? current.get(id);
          if (!lead) continue;
          const next = fill(lead);
          if (next) {
            changed.set(id, next);
            updated++;
          }
        }
        for (const lead of changed.values()) await updateFilledLead(tx, batch.teamId, lead);
      }
      const skipped = batch.skipped + batch.fills.length - (updated - batch.updatedPending);
      const { count } = await tx.import.updateMany({
        where: { id: batch.importId, cursor: batch.from, status: { in: ["running", "cancelling"] } },
        data: {
          cursor: batch.from + batch.rows,
          createdCount: { increment: batch.leads.length },
          updatedCount: { increment: updated },
          skippedCount: { increment: skipped },
          refusedCount: { increment: batch.refused.length },
        },
      });
      if (count !== 1) throw new BatchFencedError("The import's cursor moved: another runner committed these rows");
      if (batch.refused.length) {
        await tx.importRefusedRow.createMany({
          data: batch.refused.map((r) => ({ importId: batch.importId, row: r.row, cells: rawJson(r.cells), reason: r.reason })),
        });
      }
      // Last: the lead counter's row lock is held from here to the commit only.
      await writeLeadBatch(tx, batch.leads);
      return { created: batch.leads.length, updated };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** The refused rows of an import in file order, `take` at a time after row `afterRow`. */
export async function refusedRows(
  importId: string,
  afterRow: number,
  take: number,
): Promise<{ row: number; cells: string[]; reason: string }[]> {
  const rows = await db().importRefusedRow.findMany({
    where: { importId, row: { gt: afterRow } },
    orderBy: { row: "asc" },
    take,
    select: { row: true, cells: true, reason: true },
  });
  return rows.map((r) => ({ row: r.row, cells: r.cells as string[], reason: r.reason }));
}

/** Marks an import undone (its leads deleted), inside the deletion's transaction. */
export async function markUndone(tx: Tx, teamId: string, id: string, now: Date): Promise<boolean> {
  const { count } = await tx.import.updateMany({
    where: { id, teamId, status: { in: ["done", "cancelled", "failed"] } },
    data: { status: "undone", undoneAt: now },
  });
  return count === 1;
}

/** Forgets a draft the user abandoned (its file is removed by the caller). */
export async function deleteDraft(teamId: string, id: string): Promise<boolean> {
  const { count } = await db().import.deleteMany({ where: { id, teamId, status: "draft" } });
  return count === 1;
}
