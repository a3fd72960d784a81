import { recordAuditEvent, type AuditActor, type AuditDetails } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { resolveOwner, type LeadFilter } from "./lead-filter";
import { matchingLeadIds, type LeadTeam } from "./lead-list-store";
import { deleteLeads } from "./lead-store";

// Deleting leads (owners and admins): one lead, the selected rows, or every lead matching
// the list's filter. Each deletion is one transaction with one audit event that names
// lead ids and a count, never a person's name, email or phone (docs/leads.md "Deleting").
// The rows are lead-store.ts'; an erasure (erase-person.ts), the retention job and an
// import's undo delete leads in a deletion transaction of theirs too.

/** "Delete all matching" deletes at most this many leads at once (the list's count cap). */
export const BULK_DELETE_LIMIT = 10_000;

/** Lead ids listed in an audit event; beyond them the event keeps the count only. */
const AUDIT_IDS = 100;

/** The audit details of a set of leads: their count and (the first) ids. */
export function leadIdsDetails(ids: readonly string[]): AuditDetails {
  return {
    count: ids.length,
    ids: ids.slice(0, AUDIT_IDS).join(","),
    ...(ids.length > AUDIT_IDS ? { idsTruncated: true } : {}),
  };
}

/** What a deletion's audit event says besides the lead ids: who deleted them, and how. */
export type DeletionEvent = {
  teamId: string;
  actor: AuditActor;
  action: "lead.deleted" | "lead.erased" | "lead.retention_applied";
  details?: AuditDetails;
};

/** The audit event of deleted leads, written in their transaction. */
export async function auditDeleted(tx: Tx, event: DeletionEvent, ids: readonly string[]): Promise<void> {
  if (!ids.length && event.action !== "lead.retention_applied") return;
  await recordAuditEvent(
    {
      teamId: event.teamId,
      action: event.action,
      actor: event.actor,
      targetId: ids.length === 1 ? ids[0] : null,
      details: { ...leadIdsDetails(ids), ...event.details },
    },
    tx,
  );
}

/** Runs a deletion of leads as one transaction: up to BULK_DELETE_LIMIT of them (and what else names them) take a while. */
export function deletionTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work, { maxWait: 10_000, timeout: 60_000 });
}

/**
 * Deletes these leads of the team and writes their audit event, in one transaction;
 * returns the ids that existed (none given: nothing is written).
 */
export async function deleteAudited(teamId: string, ids: readonly string[], event: Omit<DeletionEvent, "teamId">): Promise<string[]> {
  if (!ids.length) return [];
  return deletionTransaction(async (tx) => {
    const deleted = await deleteLeads(tx, teamId, ids);
    await auditDeleted(tx, { teamId, ...event }, deleted);
    return deleted;
  });
}

/** Deletes these leads of the team; returns how many existed. */
export async function deleteLeadsById(options: { teamId: string; ids: readonly string[]; actor: AuditActor }): Promise<number> {
  const deleted = await deleteAudited(options.teamId, options.ids, { actor: options.actor, action: "lead.deleted" });
  return deleted.length;
}

export type DeleteMatchingResult = { ok: true; count: number } | { ok: false; error: string };

/**
 * Deletes every lead matching the filter, when as many match as the user confirmed
 * (`expected`): if leads arrived or went in between, nothing is deleted and the user sees
 * the new count first.
 */
export async function deleteMatchingLeads(options: {
  team: LeadTeam;
  filter: LeadFilter;
  expected: number;
  actor: AuditActor;
}): Promise<DeleteMatchingResult> {
  // Owner "me": the deleting user, as on the list they confirmed from.
  const ids = await matchingLeadIds(options.team, resolveOwner(options.filter, options.actor.userId), BULK_DELETE_LIMIT);
  if (ids === null) {
    return { ok: false, error: `More than ${BULK_DELETE_LIMIT.toLocaleString("en-US")} leads match: narrow the filter first.` };
  }
  if (ids.length !== options.expected) {
    return { ok: false, error: `${ids.length} leads match now (not ${options.expected}): reload the list and confirm again.` };
  }
  const deleted = await deleteAudited(options.team.id, ids, {
    actor: options.actor,
    action: "lead.deleted",
    details: { matchingFilter: true },
  });
  return { ok: true, count: deleted.length };
}
