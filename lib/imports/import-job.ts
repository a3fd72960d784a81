import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { env } from "../env";
import type { AttemptResult, JobHandler, JobLease } from "../jobs/dispatcher";
import type { ClaimedJob } from "../jobs/job-store";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { leadFromInput } from "../leads/create-lead";
import { findLeadsByContact } from "../leads/duplicate-store";
import { contactKeys, matchOf, newestByKey } from "../leads/repeat-match";
import { intakeBusy } from "../operations/intake-activity";
import { resolveLeadSource, type LeadSource } from "../teams/lead-sources";
import { workspaceCurrency } from "../workspace/settings";
import { openCsv, type CsvDelimiter, type CsvEncoding, type CsvRecord } from "./csv-file";
import { fillEmpty } from "../leads/fill-empty";
import { rowInput } from "./import-row";
import { BatchFencedError, commitBatch, type Batch, type BatchLead, type ImportedLead, type LeadFill } from "./commit-batch";
import { finishImport, markRunning, type ImportRecord } from "./import-store";

// The background job of an import (docs/import.md "How an import runs"): an outbox Job of
// kind "import", claimed like a delivery (lib/jobs/: FOR UPDATE SKIP LOCKED on PostgreSQL,
// so one instance runs it), run by the import lane's dispatcher or by the operator CLI.
// It streams the stored file from the import's cursor and commits BATCH_ROWS rows per
// short transaction (lib/imports/commit-batch.ts), so a killed instance leaves a job
// that resumes after its last committed batch, never doubling a row.

/** Rows per transaction: short enough that create_lead never waits long for SQLite's writer. */
export const BATCH_ROWS = 500;
/**
 * Rows per transaction while create_lead or a web form is being served in this process
 * (lib/operations/intake-activity.ts): SQLite's one writer is then held a fifth as long per
 * batch, so a lead waits at most that long behind the import.
 */
export const BUSY_BATCH_ROWS = 100;
/** Rows converted between two turns of the event loop (a tenth of it while intake is busy). */
const ROWS_PER_TURN = 50;
const BUSY_ROWS_PER_TURN = 5;
/**
 * Lets the event loop run what waits (create_lead's requests, the page's polls): the
 * import runs in the server's process, and SQLite's driver answers synchronously, so
 * without this a batch would be one unbroken chain of microtasks.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Attempts before an import that keeps failing is marked failed. */
export const IMPORT_MAX_ATTEMPTS = 10;

export type ImportProgress = Pick<ImportRecord, "cursor" | "totalRows" | "createdCount" | "updatedCount" | "skippedCount" | "refusedCount">;

export function importFilePath(relative: string): string {
  return path.resolve(env().DATA_DIR, relative);
}

/** The team's sources by lower-cased name, resolved once each (unknown names: the API source). */
function sourceResolver(teamId: string, chosen: LeadSource | null) {
  const cache = new Map<string, Promise<LeadSource>>();
  return (name: string | undefined): Promise<LeadSource> => {
    const key = name?.trim().toLowerCase() ?? "";
    if (!key && chosen) return Promise.resolve(chosen);
    let found = cache.get(key);
    if (!found) cache.set(key, (found = resolveLeadSource(teamId, name)));
    return found;
  };
}

type Prepared = { row: number; lead: ImportedLead; keys: string[] };

/** The batch's leads sorted into new ones, fills of earlier leads and skipped rows, by the duplicates mode. */
async function sortDuplicates(
  record: ImportRecord,
  prepared: Prepared[],
): Promise<Pick<Batch, "leads" | "fills" | "skipped" | "filledPending">> {
  if (record.duplicates === "create") return { leads: prepared.map((p) => p.lead), fills: [], skipped: 0, filledPending: [] };
  const emails = new Set<string>();
  const numbers = new Set<string>();
  for (const p of prepared) {
    for (const key of p.keys) (key.startsWith("e:") ? emails : numbers).add(key.slice(2));
  }
  // Leads stored before this batch: this import's earlier batches and everything else.
  const existing = newestByKey(await findLeadsByContact(record.teamId, { emails: [...emails], numbers: [...numbers] }));
  const leads: BatchLead[] = [];
  const inBatch = new Map<string, number>();
  const fills: LeadFill[] = [];
  const filledPending: Batch["filledPending"] = [];
  let skipped = 0;
  for (const p of prepared) {
    const stored = matchOf(p.keys, existing)?.id;
    const pending = matchOf(p.keys, inBatch) ?? undefined;
    if (stored === undefined && pending === undefined) {
      for (const key of p.keys) inBatch.set(key, leads.length);
      leads.push(p.lead);
      continue;
    }
    if (record.duplicates === "skip") {
      skipped++;
      continue;
    }
    if (stored !== undefined) {
      fills.push({ id: stored, from: p.lead, fill: (lead) => fillEmpty(lead, p.lead) });
      continue;
    }
    // An earlier row of this batch, not stored yet: filled before it is inserted.
    const first = leads[pending!]!;
    const filled = fillEmpty(first, p.lead);
    if (filled) {
      leads[pending!] = { ...filled, submitted: first.submitted ?? first };
      filledPending.push({ index: pending!, from: p.lead });
    } else skipped++;
  }
  return { leads, fills, skipped, filledPending };
}

/** The audit actor of the job's events: who started the import (the CLI when nobody). */
function starter(record: ImportRecord): AuditActor {
  return record.createdById ? { userId: record.createdById, ip: null, via: "web" } : { userId: null, ip: null, via: "cli" };
}

async function finish(record: ImportRecord, status: "done" | "cancelled", now: Date): Promise<void> {
  await db().$transaction(async (tx) => {
    if (!(await finishImport(record.id, status, now, null, tx))) return;
    const final = await tx.import.findUniqueOrThrow({ where: { id: record.id } });
    await recordAuditEvent(
      {
        teamId: record.teamId,
        action: "lead.imported",
        actor: starter(record),
        targetId: record.id,
        details: {
          status,
          fileName: record.fileName,
          rows: final.cursor,
          totalRows: final.totalRows,
          created: final.createdCount,
          updated: final.updatedCount,
          skipped: final.skippedCount,
          refused: final.refusedCount,
          duplicates: record.duplicates,
        },
      },
      tx,
    );
  });
  // The file is no longer needed: the refused rows are stored, and nothing else is read again.
  await rm(importFilePath(record.filePath), { force: true });
}

/** The size of the next batch: smaller while the intake is busy. */
const batchRows = () => (intakeBusy() ? BUSY_BATCH_ROWS : BATCH_ROWS);

async function* batches(records: AsyncGenerator<CsvRecord>, skip: number): AsyncGenerator<CsvRecord[]> {
  let seen = 0;
  let batch: CsvRecord[] = [];
  for await (const record of records) {
    if (seen++ < skip) continue;
    batch.push(record);
    if (batch.length >= batchRows()) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Runs (or resumes) an import under the job's claim until it is done, cancelled, or the
 * claim is lost. `onProgress` sees the counts after each committed batch (the CLI's bar).
 */
export async function runImport(options: {
  importId: string;
  job: ClaimedJob;
  lease: JobLease;
  now?: () => Date;
  onProgress?: (progress: ImportProgress) => void | Promise<void>;
}): Promise<AttemptResult> {
  const now = options.now ?? (() => new Date());
  const load = async () => {
    const row = await db().import.findUnique({ where: { id: options.importId } });
    return row ? ({ ...row, headers: row.headers as string[], mapping: row.mapping } as unknown as ImportRecord) : null;
  };
  let record = await load();
  if (!record || !["queued", "running", "cancelling"].includes(record.status)) return { ok: true };
  if (record.status === "cancelling") {
    await finish(record, "cancelled", now());
    return { ok: true };
  }
  const file = importFilePath(record.filePath);
  // Several instances must share DATA_DIR for imports (docs/import.md); one without the file
  // leaves the job to be retried, by an instance that has it.
  if (!existsSync(file)) return { ok: false, error: "The import's file is not in this instance's DATA_DIR" };
  await markRunning(record.id, now());

  const team = await db().team.findUniqueOrThrow({ where: { id: record.teamId }, select: { id: true, defaultPhoneCountry: true } });
  const chosen = record.sourceId
    ? await db().leadSource.findFirst({ where: { id: record.sourceId, teamId: record.teamId }, select: { id: true, name: true } })
    : null;
  const source = sourceResolver(record.teamId, chosen);
  const currency = await workspaceCurrency();
  const mapping = record.mapping!;
  const csv = await openCsv(file, { encoding: record.encoding as CsvEncoding, delimiter: record.delimiter as CsvDelimiter });

  try {
    for await (const rows of batches(csv.records, record.cursor)) {
      const status = await db().import.findUnique({ where: { id: record.id }, select: { status: true } });
      if (status?.status === "cancelling") {
        await finish(record, "cancelled", now());
        return { ok: true };
      }
      const prepared: Prepared[] = [];
      const refused: Batch["refused"] = [];
      for (const [index, { row, cells }] of rows.entries()) {
        if (index % (intakeBusy() ? BUSY_ROWS_PER_TURN : ROWS_PER_TURN) === 0 && index > 0) await nextTurn();
        const result = rowInput(csv.headers, mapping, cells);
        if (!result.ok) {
          refused.push({ row, cells, reason: result.reason });
          continue;
        }
        const { lead } = leadFromInput({
          team,
          origin: { apiKeyId: null },
          source: await source(result.input.source),
          currency,
          input: result.input,
        });
        prepared.push({ row, lead: Object.assign(lead, { importId: record.id }), keys: contactKeys(lead) });
      }
      await nextTurn();
      const sorted = await sortDuplicates(record, prepared);
      await commitBatch(
        {
          importId: record.id,
          teamId: record.teamId,
          from: record.cursor,
          rows: rows.length,
          refused,
          ...sorted,
          assign: { mode: record.assignMode, userId: record.assignUserId },
        },
        { job: options.job, lease: options.lease, now: now() },
      );
      await nextTurn();
      record = (await load())!;
      await options.onProgress?.(record);
    }
    await finish(record, "done", now());
    return { ok: true };
  } catch (error) {
    if (error instanceof BatchFencedError) {
      // The claim was lost (then this result is not recorded) or another runner moved on: resumed from the cursor.
      log("warn", "imports.batch_fenced", { import_id: record.id, reason: error.message });
      return { ok: false, error: error.message };
    }
    log("error", "imports.batch_failed", { import_id: record.id, ...summariseError(error) });
    return { ok: false, error: "The import stopped on an error; it resumes from its last committed batch" };
  } finally {
    await csv.records.return(undefined);
  }
}

/** The import lane's handler (lib/startup/dispatchers.ts). */
export const importHandler: JobHandler = {
  run: (job, now, lease) => runImport({ importId: job.payload, job, lease, now }),
  async exhausted(job, now) {
    await finishImport(
      job.payload,
      "failed",
      now,
      "The import kept failing and was stopped; the leads it wrote are kept (undo removes them).",
    );
  },
};
