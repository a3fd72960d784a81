import { db } from "../db/client";
import { rawJson } from "../db/raw-json";
import { extendLease, type ClaimedJob } from "../jobs/job-store";
import type { JobLease } from "../jobs/dispatcher";
import { findFillableLeads, updateFilledLead, type FillableLead } from "../leads/lead-merge-store";
import { writeLeadBatch } from "../leads/lead-writer";
import type { NewLead } from "../leads/new-lead";

// The one transaction that commits a batch of an import (lib/imports/import-job.ts): the
// cursor fenced, the job's claim extended, duplicates filled, new leads written through
// the lead writer, refused rows stored.

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
