import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import type { ConsentDraft } from "../consent/consent-evidence";
import { confirmKeptLead } from "../consent/double-opt-in";
import { env } from "../env";
import { wakeDeliveries } from "../jobs/wake";
import type { LeadFields, LeadWrite } from "../leads/lead-write";
import { writeLead } from "../leads/lead-writer";
import { db } from "../db/client";
import { actorManages } from "../teams/actor-role";
import { now } from "../time/clock";
import { isTeamSource } from "../web-forms/web-form-store";
import { clearSpamMark, findQuarantined } from "./quarantine-store";
import { NOT_MANAGER } from "./report-spam";
import { normalizeListValue } from "./spam-list-entries";

// "Not spam" (docs/spam.md "The quarantine"): a quarantined submission goes into the lead list
// as if it had just arrived, through the lead writer's own new-lead path: assignment rules
// (a round robin's turn), new-lead emails and the lead.created webhook, all in its
// transaction, under the lead number the sender was answered with; its quarantine row is
// deleted in that same transaction (a second release at the same moment finds it gone), and
// its sender's address added to the team's allow list there too, so their next submission is
// kept. The consent evidence the intake derived when the submission arrived (kept with its
// quarantine row) is written with the lead, and a channel with double opt-in ("now" mode) has
// its confirmation email queued after, within the person's limits (lib/consent/double-opt-in.ts).

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

/** The evidence a quarantined row keeps (its time as a Date again); null when it carried none or was quarantined before it was kept. */
function keptConsent(value: unknown): ConsentDraft | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const draft = value as ConsentDraft;
  return { ...draft, consentAt: new Date(draft.consentAt) };
}

/** Releases the team's quarantined submission `id` into the lead list, audited (owners and admins). */
export async function releaseQuarantined(options: { teamId: string; id: string; actor: AuditActor }): Promise<ReleaseOutcome> {
  if (!(await actorManages(db(), options.teamId, options.actor))) return { ok: false, error: NOT_MANAGER };
  const row = await findQuarantined(options.teamId, options.id);
  if (!row) return { ok: false, error: GONE };
  const lead = row.lead as LeadFields;
  const address = lead.email ? normalizeListValue("allow_email", lead.email) : null;
  const allow =
    address && "value" in address ? { value: address.value, note: `released ${row.id}`, createdById: options.actor.userId } : null;
  const consent = keptConsent(row.consent);
  const write: LeadWrite = {
    lead: { ...lead, teamId: options.teamId },
    consent,
    source: await sourceNow(options.teamId, row.source as LeadWrite["source"]),
    events: { origin: { apiKeyId: lead.apiKeyId, formId: lead.formId, connectionId: lead.connectionId }, emails: Boolean(env().SMTP_URL) },
    release: { seq: row.seq, gone: () => new AlreadyReleased(), allow },
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
  // Double opt-in, as the intake would have done had the submission been kept: the lead is kept either way.
  if (consent?.status === "pending")
    await confirmKeptLead({ teamId: options.teamId, leadId: row.id, email: lead.email ?? null, at: now() });
  await recordAuditEvent({
    teamId: options.teamId,
    actor: options.actor,
    action: "lead.released_from_spam",
    targetId: row.id,
    details: { allowListed: allow !== null },
  });
  return { ok: true, leadId: row.id };
}

/** Most submissions one bulk "Not spam" releases (a page of Leads → Spam). */
export const RELEASE_MANY_LIMIT = 100;

/** What a bulk release did: the ids released, and those no longer in the quarantine. */
export type ReleaseManyOutcome = { released: string[]; gone: string[] };

/** Releases each of the team's quarantined submissions `ids` as releaseQuarantined does, one after another. */
export async function releaseManyQuarantined(options: {
  teamId: string;
  ids: readonly string[];
  actor: AuditActor;
}): Promise<({ ok: true } & ReleaseManyOutcome) | { ok: false; error: string }> {
  const outcome: ReleaseManyOutcome = { released: [], gone: [] };
  for (const id of new Set(options.ids)) {
    const released = await releaseQuarantined({ teamId: options.teamId, id, actor: options.actor });
    if (!released.ok && released.error === NOT_MANAGER) return released;
    (released.ok ? outcome.released : outcome.gone).push(id);
  }
  return { ok: true, ...outcome };
}
