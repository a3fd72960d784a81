import type { Tx } from "../db/client";
import { driver } from "../db/driver";
import { env } from "../env";
import { noteLeadWriterSlots } from "../operations/intake-activity";
import { resolveLeadSource } from "../teams/lead-sources";
import { leadBatchInserts, submissionInserts } from "./lead-columns";
import { nextLeadNumbersSql } from "./lead-number-store";
import {
  counterSql,
  firstSubmissionId,
  leadRow,
  MissingApiSource,
  missingCounter,
  newSubmissionId,
  submissionRow,
  type LeadFields,
  type LeadWrite,
  type LeadWritten,
} from "./lead-write";
import { writeLeadsPostgres } from "./lead-writer-postgres";
import { writeLeadsSqlite } from "./lead-writer-sqlite";
import { markReturned } from "./lead-merge-store";
import type { NewLead } from "./new-lead";

// The one lead writer: every lead enters the database here, whether it came from create_lead,
// a web form or a connection (on the intake's hot path: group commit, below) or an import
// (batches, in the import's own transaction), with its first submission (LeadSubmission:
// what was sent, by which channel); so does every later submission of a lead.
// It owns the lead numbers (the counter row, PostgreSQL's sequence) and the id format, the fall-back to the team's "API" source, the
// written columns and their conversion (lead-write.ts, lead-columns.ts), and its statements
// for SQLite and PostgreSQL side by side (lead-writer-sqlite.ts, lead-writer-postgres.ts).
// Those run on the database driver, not through Prisma (docs/performance.md "The intake on
// the driver"); Prisma owns the schema, and lead-writer-columns.test.ts checks the written
// columns against its model metadata, lead-writer-parity.test.ts what is written against
// Prisma's own writes.

export { MissingApiSource, writtenStatus, type LeadFields, type LeadWrite, type LeadWritten } from "./lead-write";

/**
 * Stores a lead and everything that commits with it (its request-log row, its outbox rows,
 * an idempotent response, a spent challenge) atomically: in the savepoint of a group commit,
 * resolved once that commit is done. A team without its "API" source (deleted, or never made)
 * gets it made once, and the lead is written again. Throws the claim's `lost` or the
 * challenge's `replayed` error when those fail, after rolling back everything of this lead.
 */
export async function writeLead(write: LeadWrite): Promise<LeadWritten> {
  return groupCommit(write).catch(async (error: unknown) => {
    if (!(error instanceof MissingApiSource)) throw error;
    await resolveLeadSource(write.lead.teamId);
    return groupCommit(write);
  });
}

/** The most leads one commit holds. */
const MOST_PER_COMMIT = 64;
/**
 * Commits in flight at once: SQLite has one writer; on PostgreSQL two batches write side by
 * side (their numbers come from a sequence: lead-number-store.ts), each flushing its WAL while
 * the other works.
 */
const MOST_IN_FLIGHT = { sqlite: 1, postgres: 2 } as const;
type Waiting = { write: LeadWrite; resolve: (written: LeadWritten) => void; reject: (error: unknown) => void };
const waiting: Waiting[] = [];
let inFlight = 0;
let scheduled = false;

/**
 * Group commit (docs/performance.md "Group commit"): the leads that reach the writer while the
 * event loop is busy with other requests wait for its next turn (setImmediate) and commit
 * together, each in its own savepoint (writeLeadsSqlite, writeLeadsPostgres), so one refused
 * lead never undoes another and takes no id. Each is answered only after the commit: a lead
 * that is acknowledged is committed, as before. One commit writes the pages the leads share (the
 * counter's on SQLite, the right-hand leaves of the id- and time-ordered indexes) once, and PostgreSQL
 * flushes its WAL once per batch, not once per lead.
 */
function groupCommit(write: LeadWrite): Promise<LeadWritten> {
  return new Promise((resolve, reject) => {
    waiting.push({ write, resolve, reject });
    schedule();
  });
}

function schedule(): void {
  if (scheduled || !waiting.length) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    flush().catch(() => undefined);
  });
}

async function flush(): Promise<void> {
  const d = await driver().catch((error: unknown) => {
    for (const w of waiting.splice(0)) w.reject(error);
    return null;
  });
  if (!d || inFlight >= MOST_IN_FLIGHT[d.provider]) return;
  const batch = waiting.splice(0, MOST_PER_COMMIT);
  if (!batch.length) return;
  inFlight++;
  if (inFlight === MOST_IN_FLIGHT[d.provider]) noteLeadWriterSlots(true);
  // What is left waits for the next commit; on PostgreSQL that one may start now.
  schedule();
  try {
    const writes = batch.map((w) => w.write);
    const outcomes =
      d.provider === "sqlite" ? await d.run((database) => writeLeadsSqlite(database, writes)) : await writeLeadsPostgres(d.pool, writes);
    outcomes.forEach((outcome, i) => ("written" in outcome ? batch[i]!.resolve(outcome.written) : batch[i]!.reject(outcome.error)));
  } catch (error) {
    for (const w of batch) w.reject(error);
  } finally {
    inFlight--;
    noteLeadWriterSlots(false);
    schedule();
  }
}

/**
 * Inserts leads inside `tx` (Prisma's, so an import's batch commits with its progress) with
 * increasing ids in the order given (an import's batch, in file order; consecutive on SQLite,
 * and on PostgreSQL unless creates took numbers meanwhile), each with its first submission;
 * returns their ids.
 * Their sources and owners are settled by the caller; a lead with an owner is assigned at the
 * batch's time. SQLite: the counter is advanced first thing here (the transaction holds the
 * write lock anyway); PostgreSQL: the numbers come from the sequence, with no lock.
 */
export async function writeLeadBatch(
  tx: Tx,
  leads: readonly (NewLead & {
    importId?: string | null;
    ownerId?: string | null;
    /** What its first submission sent, when the lead holds more (an import's row filled by later rows of its batch). */
    submitted?: LeadFields;
  })[],
): Promise<string[]> {
  if (!leads.length) return [];
  const numbers = await batchNumbers(tx, leads.length);
  const createdAt = new Date();
  // Each row once, added to rather than copied: an import writes 500 rows a batch, and a
  // copy of a 40-field object per step was a large part of its garbage.
  const rows = leads.map((lead, index) =>
    Object.assign(leadRow(lead, numbers[index]!, createdAt), {
      importId: lead.importId ?? null,
      ownerId: lead.ownerId ?? null,
      assignedAt: lead.ownerId ? createdAt : null,
    }),
  );
  // Multi-row INSERTs: Prisma's createMany compiles a plan per call in its query compiler,
  // ≈ 2 s and hundreds of MB for 500 rows on a loaded 2-core machine; these statements go
  // to the driver as they are.
  const submissions = rows.map((row, index) =>
    submissionRow(leads[index]!.submitted ? { ...leads[index]!.submitted, importId: row.importId } : row, {
      id: firstSubmissionId(row.id),
      leadId: row.id,
      createdAt,
    }),
  );
  const provider = env().DATABASE_PROVIDER;
  for (const { sql, values } of [...leadBatchInserts(provider, rows), ...submissionInserts(provider, submissions)]) {
    await tx.$executeRawUnsafe(sql, ...values);
  }
  return rows.map((row) => row.id);
}

/** `count` new lead numbers, increasing (raw: the statement Prisma would send, without compiling it per call). */
async function batchNumbers(tx: Tx, count: number): Promise<number[]> {
  if (env().DATABASE_PROVIDER === "postgres") {
    const rows = await tx.$queryRawUnsafe<{ value: number }[]>(nextLeadNumbersSql(String(count)));
    return rows.map((row) => Number(row.value));
  }
  const [counter] = await tx.$queryRawUnsafe<{ value: number | bigint }[]>(counterSql(String(count)));
  if (!counter) throw missingCounter();
  const first = Number(counter.value) - count + 1;
  return Array.from({ length: count }, (_, index) => first + index);
}

/**
 * Adds submissions to leads that exist, inside `tx`: an import's rows that filled the lead
 * they matched (lib/imports/commit-batch.ts), each with the row's fields, at `createdAt`.
 */
export async function writeLeadSubmissions(
  tx: Tx,
  submissions: readonly { leadId: string; lead: LeadFields & { importId?: string | null } }[],
  createdAt: Date,
): Promise<void> {
  const rows = submissions.map(({ leadId, lead }) => submissionRow(lead, { id: newSubmissionId(), leadId, createdAt }));
  for (const { sql, values } of submissionInserts(env().DATABASE_PROVIDER, rows)) await tx.$executeRawUnsafe(sql, ...values);
  await markReturned(tx, [...new Set(rows.map((row) => row.leadId))]);
}
