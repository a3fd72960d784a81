import { db, type Tx } from "../db/client";
import { extendLease, type ClaimedJob } from "../jobs/job-store";
import type { JobLease } from "../jobs/dispatcher";
import { findFillableLeads, updateFilledLead, type FillableLead } from "../leads/lead-merge-store";
import { markSuppressedImports } from "../consent/import-suppression";
import { lockLeadWriters } from "../leads/lead-number-store";
import { writeLeadBatch, writeLeadSubmissions } from "../leads/lead-writer";
import type { NewLead } from "../leads/new-lead";
import {
  batchAssignment,
  batchOwners,
  NO_ASSIGNMENT,
  RoutingMovedError,
  type BatchAssignment,
  type ImportAssignChoice,
} from "../routing/import-assignment";
import { now } from "../time/clock";
import { advanceCursor, insertRefusedRows } from "./import-store";

// The one transaction that commits a batch of an import (lib/imports/import-job.ts): the
// job's claim extended, duplicates filled, the cursor fenced and advanced, refused rows
// stored, new leads given their owners (lib/routing/import-assignment.ts) and written through
// the lead writer, and each row that filled a lead kept as a submission of that lead. The rows are the stores': the job's (lib/jobs/job-store.ts), the leads'
// (lead-merge-store.ts, the lead writer), the import's (import-store.ts).

/** A row's lead, as the import read it. */
export type ImportedLead = NewLead & { importId: string };
/** A new lead of a batch: its row's, or filled by later rows (`submitted`: what its own row sent). */
export type BatchLead = ImportedLead & { submitted?: ImportedLead };

/** A lead an import's batch updates (duplicates mode "update"): the row, and the fields it fills. */
export type LeadFill = { id: string; from: ImportedLead; fill: (lead: FillableLead) => FillableLead | null };

export type Batch = {
  importId: string;
  teamId: string;
  /** The cursor this batch starts from; the commit is refused if it moved meanwhile. */
  from: number;
  /** Data rows this batch handled. */
  rows: number;
  leads: BatchLead[];
  fills: LeadFill[];
  /** Rows that filled a new lead of this same batch (`leads[index]`) before its insert. */
  filledPending: { index: number; from: ImportedLead }[];
  skipped: number;
  refused: { row: number; cells: string[]; reason: string }[];
  /** Whom the new leads go to (the import's choice); none when absent. */
  assign?: ImportAssignChoice;
};

/** Times a batch is tried again when the team's routing changes under it, before the job's own retry. */
const ROUTING_ATTEMPTS = 3;

/** The batch's commit was refused: the import's cursor moved or the job's claim was lost (another runner has it). */
export class BatchFencedError extends Error {
  override name = "BatchFencedError";
}

/**
 * Fills the stored leads the batch duplicates, as `tx` sees them now; returns how many rows
 * filled one, and those rows with the lead each filled (its submissions).
 */
async function fillDuplicates(tx: Tx, batch: Batch): Promise<{ filled: number; joined: { leadId: string; lead: ImportedLead }[] }> {
  if (!batch.fills.length) return { filled: 0, joined: [] };
  const stored = await findFillableLeads(
    tx,
    batch.teamId,
    batch.fills.map((f) => f.id),
  );
  const current = new Map(stored.map((lead) => [lead.id, lead]));
  const changed = new Map<string, FillableLead>();
  const joined: { leadId: string; lead: ImportedLead }[] = [];
  for (const { id, from, fill } of batch.fills) {
    const lead = changed.get(id) ?? current.get(id);
    if (!lead) continue;
    const next = fill(lead);
    if (next) {
      changed.set(id, next);
      joined.push({ leadId: id, lead: from });
    }
  }
  for (const lead of changed.values()) await updateFilledLead(tx, batch.teamId, lead);
  return { filled: joined.length, joined };
}

/**
 * Commits one batch in one short transaction: the job's claim extended (only while this
 * worker holds it), the updated leads filled (their owners kept), the import's cursor and
 * counts advanced (only from `from`: a second runner's batch of the same rows finds the
 * cursor moved and rolls back), the refused rows stored, the new leads given their owners
 * and inserted with consecutive ids in file order, and the rows that filled a lead added to
 * its submissions. Returns the counts the batch added.
 */
export async function commitBatch(
  batch: Batch,
  claim: { job: ClaimedJob; lease: JobLease; now: Date },
): Promise<{ created: number; updated: number }> {
  for (let attempt = 1; ; attempt++) {
    // Read afresh for each batch: the rules as they are when the batch runs apply.
    const assignment = await batchAssignment(batch.teamId, batch.assign ?? NO_ASSIGNMENT);
    try {
      return await commitOnce(batch, claim, assignment);
    } catch (error) {
      if (!(error instanceof RoutingMovedError) || attempt >= ROUTING_ATTEMPTS) throw error;
    }
  }
}

function commitOnce(
  batch: Batch,
  claim: { job: ClaimedJob; lease: JobLease; now: Date },
  assignment: BatchAssignment,
): Promise<{ created: number; updated: number }> {
  return db().$transaction(
    async (tx) => {
      if (!(await extendLease(claim.job, claim.lease.workerId, new Date(claim.now.getTime() + claim.lease.leaseMs), tx))) {
        throw new BatchFencedError("The import job's claim was lost");
      }
      // Before the first stored lead's row is locked (its fill): the lead writers' order lock,
      // which a repeat submission's batch takes before it locks the lead it joins (PostgreSQL;
      // without it, each could hold the row the other waits for: a deadlock).
      if (batch.fills.length) await lockLeadWriters(tx);
      const { filled, joined } = await fillDuplicates(tx, batch);
      const updated = batch.filledPending.length + filled;
      const skipped = batch.skipped + batch.fills.length - filled;
      const counts = { created: batch.leads.length, updated, skipped, refused: batch.refused.length };
      if (!(await advanceCursor(tx, { importId: batch.importId, from: batch.from, rows: batch.rows, ...counts }))) {
        throw new BatchFencedError("The import's cursor moved: another runner committed these rows");
      }
      await insertRefusedRows(tx, batch.importId, batch.refused);
      // Last: a batch that filled no duplicate holds the lead writers' order lock from here to
      // the commit only (from the owners' round-robin turns, on PostgreSQL, which take it
      // first: import-assignment.ts).
      const owners = await batchOwners(tx, { teamId: batch.teamId, assignment, leads: batch.leads, now: now() });
      const ids = await writeLeadBatch(
        tx,
        batch.leads.map((lead, index) => ({ ...lead, ownerId: owners[index] })),
      );
      const pending = batch.filledPending.map(({ index, from }) => ({ leadId: ids[index]!, lead: from }));
      const at = new Date();
      await writeLeadSubmissions(tx, [...joined, ...pending], at);
      // A row of an address on the suppression list is kept, marked "withdrew consent before" (docs/consent.md).
      await markSuppressedImports(tx, {
        teamId: batch.teamId,
        leads: [
          ...batch.leads.map((lead, index) => ({ leadId: ids[index]!, email: lead.email ?? null })),
          ...joined.map(({ leadId, lead }) => ({ leadId, email: lead.email ?? null })),
        ],
        at,
      });
      return { created: batch.leads.length, updated };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}
