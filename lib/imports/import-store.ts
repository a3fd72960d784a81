import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { rawJson } from "../db/raw-json";
import { insertJobs } from "../jobs/job-store";
import type { ColumnMapping } from "./column-mapping";

// The imports' data (Import, ImportRefusedRow): a draft, its queueing with its job, its
// status. The transaction that commits a batch is import-batch-store.ts.

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

/** The team's drafts (uploaded, never started): capped per team (import-drafts.ts). */
export async function countDrafts(teamId: string): Promise<number> {
  return db().import.count({ where: { teamId, status: "draft" } });
}

/** Drafts uploaded before `before` and never started, oldest first, `take` at a time. */
export async function abandonedDrafts(before: Date, take: number): Promise<Pick<ImportRecord, "id" | "teamId" | "filePath">[]> {
  return db().import.findMany({
    where: { status: "draft", createdAt: { lt: before } },
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true, teamId: true, filePath: true },
  });
}

/** Which of these imports still read their file: drafts and imports queued or running. */
export async function importsReadingFiles(ids: string[]): Promise<Set<string>> {
  const rows = await db().import.findMany({
    where: { id: { in: ids }, status: { in: ["draft", ...ACTIVE_STATUSES] } },
    select: { id: true },
  });
  return new Set(rows.map((row) => row.id));
}
