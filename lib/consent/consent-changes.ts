import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { now } from "../time/clock";
import { insertRecordedConsent, type RecordedConsent } from "./lead-consent-store";
import {
  clearFormConsent,
  currentFormConsent,
  insertFormConsentVersion,
  setFormDoubleOptIn,
  type ConsentSettings,
} from "./consent-version-store";

// The audited consent changes (docs/consent.md): what a web form asks for (owners and admins),
// and a consent given another way recorded on a lead's page. Each commits with its audit event.

const same = (a: ConsentSettings, b: ConsentSettings) =>
  a.text === b.text && a.purpose === b.purpose && a.policyUrl === b.policyUrl && a.required === b.required;

/**
 * Sets the consent a form asks for: `settings` different from the current version's make a new
 * version (the old ones are kept); the same settings change nothing; null stops asking. False
 * when the team has no such form.
 */
export async function setFormConsent(options: {
  teamId: string;
  formId: string;
  settings: ConsentSettings | null;
  /** Double opt-in (docs/consent.md): off whenever no consent is asked. */
  doubleOptIn?: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  const { teamId, formId, settings, actor } = options;
  const doubleOptIn = settings !== null && options.doubleOptIn === true;
  return db().$transaction(async (tx) => {
    const current = await currentFormConsent(tx, { teamId, formId });
    if (!current) return false;
    if (current.doubleOptIn !== doubleOptIn) {
      await setFormDoubleOptIn(tx, formId, doubleOptIn);
      await recordAuditEvent(
        { teamId, action: "web_form.consent_set", actor, targetId: formId, details: { name: current.name, double_opt_in: doubleOptIn } },
        tx,
      );
    }
    if (!settings) {
      const cleared = await clearFormConsent(tx, { teamId, formId });
      if (cleared?.had) {
        await recordAuditEvent(
          { teamId, action: "web_form.consent_set", actor, targetId: formId, details: { name: current.name, asked: false } },
          tx,
        );
      }
      return true;
    }
    if (current.version && same(current.version, settings)) return true;
    const version = await insertFormConsentVersion(tx, { teamId, formId, settings, createdById: actor.userId, at: now() });
    if (!version) return false;
    await recordAuditEvent(
      {
        teamId,
        action: "web_form.consent_set",
        actor,
        targetId: formId,
        details: {
          name: current.name,
          asked: true,
          version: version.id,
          number: version.number,
          required: settings.required,
          purpose: settings.purpose,
        },
      },
      tx,
    );
    return true;
  });
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
