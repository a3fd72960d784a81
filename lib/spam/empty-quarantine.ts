import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { actorManages } from "../teams/actor-role";
import { deleteTeamQuarantine } from "./quarantine-store";
import { NOT_MANAGER } from "./report-spam";

// "Empty spam" (Leads → Spam, owners and admins; docs/spam.md "Retention and Empty spam"):
// every quarantined submission of the team is deleted now, with one audit event carrying the
// count, in one transaction. Their request-log rows stay (they say "quarantined: …").

export type EmptyOutcome = { ok: true; count: number } | { ok: false; error: string };

/** Deletes the team's whole quarantine (owners and admins); how many submissions went. */
export async function emptyQuarantine(options: { teamId: string; actor: AuditActor }): Promise<EmptyOutcome> {
  return db().$transaction(
    async (tx): Promise<EmptyOutcome> => {
      if (!(await actorManages(tx, options.teamId, options.actor))) return { ok: false, error: NOT_MANAGER };
      const count = await deleteTeamQuarantine(tx, options.teamId);
      await recordAuditEvent({ teamId: options.teamId, actor: options.actor, action: "spam.emptied", details: { count } }, tx);
      return { ok: true, count };
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
