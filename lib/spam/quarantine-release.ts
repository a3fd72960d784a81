import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { env } from "../env";
import { wakeDeliveries } from "../jobs/wake";
import type { LeadFields, LeadWrite } from "../leads/lead-write";
import { writeLead } from "../leads/lead-writer";
import { now } from "../time/clock";
import { isTeamSource } from "../web-forms/web-form-store";
import { clearSpamMark, findQuarantined } from "./quarantine-store";

// "Not spam" (docs/spam.md "The quarantine"): a quarantined submission goes into the lead list
// as if it had just arrived, through the lead writer's own new-lead path: assignment rules
// (a round robin's turn), new-lead emails and the lead.created webhook, all in its
// transaction, under the lead number the sender was answered with; its quarantine row is
// deleted in that same transaction (a second release at the same moment finds it gone).

/** Thrown inside the writer's transaction when the submission left the quarantine meanwhile. */
class AlreadyReleased extends Error {}

export type ReleaseOutcome = { ok: true; leadId: string } | { ok: false; error: string };

const GONE = "That submission is no longer in the quarantine (released or erased meanwhile).";

/**
 * The source a released submission gets: the web form's, while the team still has it; else
 * the one it names, looked up as a request's (the team's "API" source when gone, spec 2.1).
 */
async function sourceNow(teamId: string, source: LeadWrite["source"]): Promise<LeadWrite["source"]> {
  if (!("chosen" in source)) return source;
  return (await isTeamSource({ teamId, sourceId: source.chosen.id })) ? source : { requested: source.chosen.name };
}

/** Releases the team's quarantined submission `id` into the lead list, audited. */
export async function releaseQuarantined(options: { teamId: string; id: string; actor: AuditActor }): Promise<ReleaseOutcome> {
  const row = await findQuarantined(options.teamId, options.id);
  if (!row) return { ok: false, error: GONE };
  const lead = row.lead as LeadFields;
  const write: LeadWrite = {
    lead: { ...lead, teamId: options.teamId },
    source: await sourceNow(options.teamId, row.source as LeadWrite["source"]),
    events: { origin: { apiKeyId: lead.apiKeyId, formId: lead.formId, connectionId: lead.connectionId }, emails: Boolean(env().SMTP_URL) },
    release: { seq: row.seq, gone: () => new AlreadyReleased() },
    now: now(),
  };
  try {
    const written = await writeLead(write);
    if (written.jobs) wakeDeliveries();
  } catch (error) {
    if (error instanceof AlreadyReleased) return { ok: false, error: GONE };
    throw error;
  }
  await clearSpamMark(options.teamId, row.id);
  await recordAuditEvent({ teamId: options.teamId, actor: options.actor, action: "lead.released_from_spam", targetId: row.id });
  return { ok: true, leadId: row.id };
}
