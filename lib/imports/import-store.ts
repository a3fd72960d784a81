import { db, type Tx } from "../db/client";
import { rawJson } from "../db/raw-json";
import type { ImportAssignChoice, ImportAssignMode } from "../routing/import-assignment";
import type { ColumnMapping } from "./column-mapping";

// The imports' data (Import, ImportRefusedRow): a draft, its queueing, its cursor and
// counts, its refused rows, its status. The transactions are the use cases': starting an
// import with its job (lead-import.ts), committing a batch (commit-batch.ts).

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
  /** Whom its new leads go to (docs/routing.md "Imports"); assignUserId with "member" only. */
  assignMode: ImportAssignMode;
  assignUserId: string | null;
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
    assignMode: row.assignMode as ImportAssignMode,
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

/** Imports' file names by id, for the leads' submissions that name an import (deleted imports are absent). */
export async function importFileNames(teamId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db().import.findMany({ where: { teamId, id: { in: ids } }, select: { id: true, fileName: true } });
  return new Map(rows.map((row) => [row.id, row.fileName]));
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

/**
 * Queues a draft import inside `tx` (the start's, which also writes its job): its mapping
 * and choices, and the team's running slot (Import.activeTeamId, unique: another import of
 * the team holding it makes the statement fail with a unique violation). False when the
 * import is no draft any more (started twice).
 */
export async function queueDraft(
  tx: Tx,
  options: {
    teamId: string;
    id: string;
    mapping: ColumnMapping;
    duplicates: DuplicatesMode;
    sourceId: string | null;
    assign: ImportAssignChoice;
  },
): Promise<boolean> {
  const { count } = await tx.import.updateMany({
    where: { id: options.id, teamId: options.teamId, status: "draft" },
    data: {
      status: "queued",
      activeTeamId: options.teamId,
      mapping: rawJson(options.mapping),
      duplicates: options.duplicates,
      sourceId: options.sourceId,
      assignMode: options.assign.mode,
      assignUserId: options.assign.mode === "member" ? options.assign.userId : null,
    },
  });
  return count === 1;
}

/** How the member an import assigns its leads to is named (their name, else their email); null when the user is gone. */
export async function assigneeName(userId: string): Promise<string | null> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
  return user ? user.name || user.email : null;
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

/**
 * Advances a running (or cancelling) import's cursor from `from` by a batch's rows and adds
 * its counts, inside the batch's `tx`; false when the cursor is no longer at `from` (another
 * runner committed these rows) or the import stopped.
 */
export async function advanceCursor(
  tx: Tx,
  batch: { importId: string; from: number; rows: number; created: number; updated: number; skipped: number; refused: number },
): Promise<boolean> {
  const { count } = await tx.import.updateMany({
    where: { id: batch.importId, cursor: batch.from, status: { in: ["running", "cancelling"] } },
    data: {
      cursor: batch.from + batch.rows,
      createdCount: { increment: batch.created },
      updatedCount: { increment: batch.updated },
      skippedCount: { increment: batch.skipped },
      refusedCount: { increment: batch.refused },
    },
  });
  return count === 1;
}

/** Stores a batch's refused rows inside its `tx`. */
export async function insertRefusedRows(
  tx: Tx,
  importId: string,
  rows: readonly { row: number; cells: string[]; reason: string }[],
): Promise<void> {
  if (!rows.length) return;
  await tx.importRefusedRow.createMany({
    data: rows.map((r) => ({ importId, row: r.row, cells: rawJson(r.cells), reason: r.reason })),
  });
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
