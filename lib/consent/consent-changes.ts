import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { wakeDeliveries } from "../jobs/wake";
import { now } from "../time/clock";
import { consentChanged } from "./consent-changed";
import { deleteSuppression, type SuppressionReason } from "./suppression-store";
import { insertAnswerConsent, insertRecordedConsent, teamLeadConsentStatus, type RecordedConsent } from "./lead-consent-store";
import {
  clearChannelConsent,
  currentChannelConsent,
  insertConsentVersion,
  setChannelDoubleOptIn,
  type ConsentChannelRef,
  type ConsentSettings,
} from "./consent-version-store";

// The audited consent changes (docs/consent.md): what a web form or a connection asks for (owners and admins),
// and a consent given another way, or its withdrawal, recorded on a lead's page. Each commits
// with its audit event.

const same = (a: ConsentSettings, b: ConsentSettings) =>
  a.text === b.text && a.purpose === b.purpose && a.policyUrl === b.policyUrl && a.required === b.required;

/**
 * Sets the consent a channel (a web form, a connection) asks for: `settings` different from
 * the current version's make a new version (the old ones are kept); the same settings change
 * nothing; null stops asking. False when the team has no such channel.
 */
export async function setChannelConsent(options: {
  teamId: string;
  channel: ConsentChannelRef;
  settings: ConsentSettings | null;
  /** Double opt-in (docs/consent.md): off whenever no consent is asked. */
  doubleOptIn?: boolean;
  /** With double opt-in, "Create the lead only once confirmed" (docs/consent.md); off: the lead is created now, pending. */
  hold?: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  const { teamId, channel, settings, actor } = options;
  const doubleOptIn = settings !== null && options.doubleOptIn === true;
  const hold = doubleOptIn && channel.kind === "form" && options.hold === true;
  const action = channel.kind === "form" ? "web_form.consent_set" : "connection.consent_set";
  const audit = (current: { name: string }, details: Record<string, unknown>, tx: Tx) =>
    recordAuditEvent({ teamId, action, actor, targetId: channel.id, details: { name: current.name, ...details } }, tx);
  return db().$transaction(async (tx) => {
    const current = await currentChannelConsent(tx, { teamId, channel });
    if (!current) return false;
    if (current.doubleOptIn !== doubleOptIn || current.hold !== hold) {
      await setChannelDoubleOptIn(tx, channel, doubleOptIn, hold);
      await audit(
        current,
        { double_opt_in: doubleOptIn, ...(doubleOptIn && channel.kind === "form" ? { create_lead: hold ? "once_confirmed" : "now" } : {}) },
        tx,
      );
    }
    if (!settings) {
      if (current.version) {
        await clearChannelConsent(tx, channel);
        await audit(current, { asked: false }, tx);
      }
      return true;
    }
    if (current.version && same(current.version, settings)) return true;
    const version = await insertConsentVersion(tx, { teamId, channel, settings, createdById: actor.userId, at: now() });
    if (!version) return false;
    await audit(
      current,
      { asked: true, version: version.id, number: version.number, required: settings.required, purpose: settings.purpose },
      tx,
    );
    return true;
  });
}

/** Sets the consent a web form asks for (setChannelConsent); false when the team has no such form. */
export function setFormConsent(options: {
  teamId: string;
  formId: string;
  settings: ConsentSettings | null;
  doubleOptIn?: boolean;
  hold?: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  const { formId, ...rest } = options;
  return setChannelConsent({ ...rest, channel: { kind: "form", id: formId } });
}

/** Records consent given another way (phone, paper) on the team's lead; null when the team has no such lead. */
export async function recordLeadConsent(options: {
  teamId: string;
  leadId: string;
  consent: RecordedConsent;
  actor: AuditActor;
}): Promise<{ id: string } | null> {
  const { teamId, leadId, consent, actor } = options;
  return db().$transaction(async (tx) => {
    const recorded = await insertRecordedConsent(tx, { teamId, leadId, consent, recordedById: actor.userId, at: now() });
    if (!recorded) return null;
    await recordAuditEvent(
      {
        teamId,
        action: "lead.consent_recorded",
        actor,
        targetId: leadId,
        details: { consent_id: recorded.id, status: consent.status, purpose: consent.purpose },
      },
      tx,
    );
    return recorded;
  });
}

export type Withdrawal = { result: "withdrawn"; id: string } | { result: "withdrawn_already" };

/**
 * "Withdraw consent" on the team's lead (any member, as "Record consent"): "withdrawn" evidence
 * with the time, the member and an optional note of how the person said so; audited; the
 * lead's address on the suppression list and lead.consent_changed sent (consent-changed.ts),
 * all in one transaction. A lead whose consent is withdrawn already changes nothing; null when
 * the team has no such lead.
 */
export async function withdrawLeadConsent(options: {
  teamId: string;
  leadId: string;
  note: string | null;
  actor: AuditActor;
}): Promise<Withdrawal | null> {
  const { teamId, leadId, actor } = options;
  const at = now();
  const written = await db().$transaction(async (tx) => {
    const current = await teamLeadConsentStatus(tx, { teamId, leadId });
    if (!current) return null;
    if (current.status === "withdrawn") return { answer: { result: "withdrawn_already" as const }, queued: false };
    const evidence = await insertAnswerConsent(tx, {
      teamId,
      leadId,
      status: "withdrawn",
      channel: "manual",
      note: options.note,
      recordedById: actor.userId,
      at,
    });
    if (!evidence) return null;
    await recordAuditEvent({ teamId, action: "lead.consent_withdrawn", actor, targetId: leadId, details: { consent_id: evidence.id } }, tx);
    const queued = await consentChanged(tx, { teamId, leadId, status: "withdrawn", versionId: evidence.versionId, at });
    return { answer: { result: "withdrawn" as const, id: evidence.id }, queued };
  });
  if (written?.queued) wakeDeliveries();
  return written?.answer ?? null;
}

/**
 * Takes an address off the team's suppression list (an operator's `npm run leads --
 * unsuppress`: the person gave consent again, or asks to be forgotten entirely), audited with
 * the reason it was there, never the address. The reason, or null when it was not on the list.
 */
export async function purgeSuppression(options: { teamId: string; email: string; actor: AuditActor }): Promise<SuppressionReason | null> {
  return db().$transaction(async (tx) => {
    const reason = await deleteSuppression(tx, options.teamId, options.email);
    if (reason)
      await recordAuditEvent(
        { teamId: options.teamId, action: "consent.suppression_purged", actor: options.actor, details: { reason } },
        tx,
      );
    return reason;
  });
}
