import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { insertJobs } from "../jobs/job-store";
import { wakeImports } from "../jobs/wake";
import { BOM, csvRow } from "../leads/csv";
import { LIMITS } from "../leads/lead-input-schema";
import { deletionTransaction } from "../leads/delete-leads";
import { deleteLeads, importedLeads } from "../leads/lead-store";
import type { ImportAssignChoice } from "../routing/import-assignment";
import { listLeadSourceNames } from "../teams/lead-sources";
import { headerSignature, mappingProblem, proposeMapping, type ColumnMapping } from "./column-mapping";
import { CsvFileError, inspectCsv, MAX_IMPORT_BYTES } from "./csv-file";
import { acceptedAssignment, assignmentDetails } from "./import-assignment-choice";
import { checkDraftRoom, IMPORT_DIR, ImportLimitError, takeUploadSlot } from "./import-drafts";
import { IMPORT_MAX_ATTEMPTS, importFilePath } from "./import-job";
import {
  deleteDraft,
  insertImport,
  lastMapping,
  markUndone,
  queueDraft,
  refusedRows,
  requestCancel,
  type DuplicatesMode,
  type ImportRecord,
} from "./import-store";

// The use cases of an import (docs/import.md), shared by Leads → Import and the operator
// CLI: upload (store and check the file), start, cancel, undo, and the refused rows as CSV;
// the preview is import-preview.ts. The job that writes the leads is lib/imports/import-job.ts.

export { CsvFileError, ImportLimitError, MAX_IMPORT_BYTES };

export type UploadResult = { record: ImportRecord; proposed: ColumnMapping; remembered: boolean };

/** Counts bytes as they pass and stops past the limit (a file over 50 MB is refused while it arrives). */
function byteLimit(limit: number): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limit)
        done(
          new CsvFileError(
            `The file is over ${limit / 1024 / 1024} MB; an import takes at most ${limit / 1024 / 1024} MB. Split it into smaller files.`,
          ),
        );
      else done(null, chunk);
    },
  });
}

/**
 * Stores an uploaded file under DATA_DIR and reads it through once (a broken file is
 * refused here, with nothing written: CsvFileError), then records the draft import with
 * the mapping to propose: the team's last one for the same headers, else one from the names.
 * Refused before anything is stored (ImportLimitError, a CsvFileError) while the team or the
 * user has other uploads under way, or the team its maximum of drafts (import-drafts.ts).
 */
export async function uploadImport(options: {
  teamId: string;
  fileName: string;
  body: ReadableStream<Uint8Array> | Readable;
  createdById: string | null;
}): Promise<UploadResult> {
  const release = takeUploadSlot(options.teamId, options.createdById);
  try {
    await checkDraftRoom(options.teamId);
    return await storeUpload(options);
  } finally {
    release();
  }
}

async function storeUpload(options: Parameters<typeof uploadImport>[0]): Promise<UploadResult> {
  const id = `imp_${randomUUID().replaceAll("-", "")}`;
  const relative = path.join(IMPORT_DIR, `${id}.csv`);
  const target = importFilePath(relative);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.part`;
  try {
    const source =
      options.body instanceof Readable
        ? options.body
        : Readable.fromWeb(options.body as import("node:stream/web").ReadableStream<Uint8Array>);
    await pipeline(source, byteLimit(MAX_IMPORT_BYTES), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
    const summary = await inspectCsv(target);
    const signature = headerSignature(summary.headers);
    const usable = rememberedMapping(summary.headers, await lastMapping(options.teamId, signature));
    // Again, now that the file is read: another upload of the team may have ended meanwhile.
    await checkDraftRoom(options.teamId);
    const record = await insertImport({
      id,
      teamId: options.teamId,
      fileName: cleanFileName(options.fileName),
      filePath: relative,
      fileBytes: summary.bytes,
      encoding: summary.format.encoding,
      delimiter: summary.format.delimiter,
      headers: summary.headers,
      headerSignature: signature,
      totalRows: summary.rows,
      createdById: options.createdById,
    });
    return { record, proposed: usable ?? proposeMapping(summary.headers), remembered: usable !== null };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(target, { force: true });
    throw error;
  }
}

/** A remembered mapping applied to these headers by name (the same set, perhaps in another order). */
export function rememberedMapping(
  headers: readonly string[],
  last: { headers: string[]; mapping: ColumnMapping } | null,
): ColumnMapping | null {
  if (!last) return null;
  const byName = new Map(last.headers.map((header, index) => [header.trim().toLowerCase(), last.mapping[index]]));
  const mapping = headers.map((header) => byName.get(header.trim().toLowerCase()));
  return mapping.every((target) => target !== undefined) ? (mapping as ColumnMapping) : null;
}

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A file name as shown and audited: its last path part, no control characters, at most 200 characters. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(CONTROL_CHARACTERS, "").trim().slice(0, 200);
  return clean || "import.csv";
}

/** The leads of an undone import still there: those another lead was merged into, kept by the undo. */
export async function keptLeadIds(record: ImportRecord): Promise<string[]> {
  return (await importedLeads(record.teamId, record.id, 0, 200)).map((lead) => lead.id);
}

export type StartResult = { ok: true } | { ok: false; error: string };

/** Starts a draft import in the background (one per team at a time), audited in the same transaction. */
export async function startImport(options: {
  record: ImportRecord;
  mapping: ColumnMapping;
  duplicates: DuplicatesMode;
  sourceId: string | null;
  assign?: ImportAssignChoice;
  actor: AuditActor;
  now?: Date;
}): Promise<StartResult> {
  const { record } = options;
  const problem = mappingProblem(record.headers, options.mapping, LIMITS.extraFieldCount);
  if (problem) return { ok: false, error: problem };
  if (options.sourceId) {
    const sources = await listLeadSourceNames(record.teamId);
    if (!sources.some((s) => s.id === options.sourceId)) return { ok: false, error: "That lead source no longer exists: choose another." };
  }
  const assign = await acceptedAssignment(record.teamId, options.assign);
  if (!assign.ok) return assign;
  const { teamId, id } = record;
  const runAt = options.now ?? new Date();
  try {
    // One transaction: the import queued (holding the team's running slot), its job and the audit event.
    const queued = await db().$transaction(async (tx) => {
      const { mapping, duplicates, sourceId } = options;
      const draft = { teamId, id, mapping, duplicates, sourceId, assign: assign.choice };
      if (!(await queueDraft(tx, draft))) return false;
      await insertJobs(
        [{ teamId, kind: "import", eventId: id, eventType: "lead.import", payload: id, maxAttempts: IMPORT_MAX_ATTEMPTS, runAt }],
        tx,
      );
      await recordAuditEvent(
        {
          teamId,
          action: "lead.import_started",
          actor: options.actor,
          targetId: id,
          details: { fileName: record.fileName, rows: record.totalRows, duplicates, ...assignmentDetails(assign.choice) },
        },
        tx,
      );
      return true;
    });
    if (!queued) return { ok: false, error: "This import was started already." };
  } catch (error) {
    // The team's running slot (Import.activeTeamId, unique) is another import's.
    if (isUniqueViolation(error))
      return { ok: false, error: "Another import of this team is running: wait for it to finish (or cancel it) first." };
    throw error;
  }
  wakeImports();
  return { ok: true };
}

/** Asks a running import to stop after its current batch (what was written is kept), audited. */
export async function cancelImport(options: { record: ImportRecord; actor: AuditActor }): Promise<boolean> {
  if (!(await requestCancel(options.record.teamId, options.record.id))) return false;
  await recordAuditEvent({
    teamId: options.record.teamId,
    action: "lead.import_cancelled",
    actor: options.actor,
    targetId: options.record.id,
    details: { fileName: options.record.fileName },
  });
  return true;
}

/** Forgets a draft (never started) and its file. */
export async function discardDraft(record: ImportRecord): Promise<void> {
  if (await deleteDraft(record.teamId, record.id)) await rm(importFilePath(record.filePath), { force: true });
}

export type UndoResult = { ok: true; deleted: number; kept: string[] } | { ok: false; error: string };

/** Leads deleted per transaction by an undo: each a short write. */
const UNDO_BATCH = 1_000;
/** Kept leads named in the result and the audit event. */
const KEPT_NAMED = 50;

/**
 * Deletes every lead the import created, batch by batch, except those another lead was
 * merged into since (they hold more than the import brought: named and kept). The last
 * transaction marks the import undone with one audit event. Leads it updated stay as they are.
 */
export async function undoImport(options: { record: ImportRecord; actor: AuditActor; now?: Date }): Promise<UndoResult> {
  const { record } = options;
  if (!["done", "cancelled", "failed"].includes(record.status)) {
    return {
      ok: false,
      error: record.status === "undone" ? "This import was undone already." : "Only a finished or cancelled import can be undone.",
    };
  }
  const kept: string[] = [];
  let deleted = 0;
  let after = 0;
  for (;;) {
    const batch = await importedLeads(record.teamId, record.id, after, UNDO_BATCH);
    if (!batch.length) break;
    after = batch.at(-1)!.seq;
    kept.push(...batch.filter((lead) => lead.merged).map((lead) => lead.id));
    const ids = batch.filter((lead) => !lead.merged).map((lead) => lead.id);
    if (ids.length) deleted += (await deletionTransaction((tx) => deleteLeads(tx, record.teamId, ids))).length;
  }
  await db().$transaction(async (tx) => {
    if (!(await markUndone(tx, record.teamId, record.id, options.now ?? new Date()))) return;
    await recordAuditEvent(
      {
        teamId: record.teamId,
        action: "lead.import_undone",
        actor: options.actor,
        targetId: record.id,
        details: {
          fileName: record.fileName,
          deleted,
          kept: kept.length,
          ...(kept.length ? { keptIds: kept.slice(0, KEPT_NAMED).join(",") } : {}),
        },
      },
      tx,
    );
  });
  return { ok: true, deleted, kept };
}

/** The refused rows as CSV: the file's columns and a `reason` column, ready to fix and import again. */
export function refusedRowsCsv(record: ImportRecord): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(BOM + csvRow([...record.headers, "reason"])));
          return;
        }
        const rows = await refusedRows(record.id, after, 500);
        if (!rows.length) {
          controller.close();
          return;
        }
        after = rows.at(-1)!.row;
        controller.enqueue(encoder.encode(rows.map((r) => csvRow([...r.cells, r.reason])).join("")));
      },
    },
    { highWaterMark: 1 },
  );
}
