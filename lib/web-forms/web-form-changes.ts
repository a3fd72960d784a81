import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { deleteChannelHeld } from "../consent/held-submission-store";
import { db } from "../db/client";
import { CHANNEL_REPEATS_DEFAULT, type Repeats } from "../leads/repeats";
import { CHANNEL_SPAM_CHECKS_DEFAULT } from "../spam/spam-checks-setting";
import {
  generateFormId,
  insertWebForm,
  isTeamSource,
  removeWebForm,
  writeWebFormEnabled,
  writeWebFormRepeats,
  writeWebFormSettings,
  writeWebFormSpamChecks,
  type WebFormSettings,
} from "./web-form-store";

// What owners and admins do with their team's web forms (Team Settings → API Integration →
// Web forms): create, change, set what a repeat submission does and whether the spam checks
// run, enable or disable, delete. Each change is written with its
// audit event in one transaction, and a refused one writes neither. The settings are
// checked before (web-form-settings.ts); the rows are web-form-store.ts'.

export class UnknownSourceError extends Error {
  constructor() {
    super("That lead source no longer exists; choose another");
  }
}

/** A form may only name its own team's lead source (or none: the request's `source` field decides). */
async function assertSourceOfTeam(teamId: string, sourceId: string | null): Promise<void> {
  if (sourceId !== null && !(await isTeamSource({ teamId, sourceId }))) throw new UnknownSourceError();
}

export async function createWebForm(options: {
  teamId: string;
  settings: WebFormSettings;
  /** What a repeat submission does (docs/leads.md "Repeat submissions"); absent: CHANNEL_REPEATS_DEFAULT. */
  repeats?: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"); absent: CHANNEL_SPAM_CHECKS_DEFAULT (on). */
  spamChecks?: boolean;
  createdById: string | null;
  actor: AuditActor;
}): Promise<string> {
  const { teamId, settings } = options;
  const repeats = options.repeats ?? CHANNEL_REPEATS_DEFAULT;
  const spamChecks = options.spamChecks ?? CHANNEL_SPAM_CHECKS_DEFAULT;
  await assertSourceOfTeam(teamId, settings.sourceId);
  const id = generateFormId();
  await db().$transaction(async (tx) => {
    await insertWebForm(tx, { id, teamId, settings, repeats, spamChecks, createdById: options.createdById });
    await recordAuditEvent(
      { teamId, action: "web_form.created", actor: options.actor, targetId: id, details: { name: settings.name, repeats, spamChecks } },
      tx,
    );
  });
  return id;
}

/** A change of one form of the team, and who makes it. */
type FormChange = { teamId: string; formId: string; actor: AuditActor };

/** Replaces a form's settings; false when the team has no such form. */
export async function updateWebForm(options: FormChange & { settings: WebFormSettings }): Promise<boolean> {
  const { teamId, formId, settings } = options;
  await assertSourceOfTeam(teamId, settings.sourceId);
  return db().$transaction(async (tx) => {
    if (!(await writeWebFormSettings(tx, { teamId, formId, settings }))) return false;
    await recordAuditEvent(
      {
        teamId,
        action: "web_form.updated",
        actor: options.actor,
        targetId: formId,
        details: { name: settings.name, origins: settings.allowedOrigins.join(" "), challenge: settings.challenge },
      },
      tx,
    );
    return true;
  });
}

/**
 * Sets what a repeat submission to the form does; audited as a change of the form's settings
 * (web_form.updated, with the new value as its other changes give theirs) when it changes. False when the
 * team has no such form.
 */
export async function setWebFormRepeats(options: FormChange & { repeats: Repeats }): Promise<boolean> {
  const { teamId, formId, repeats } = options;
  return db().$transaction(async (tx) => {
    const before = await writeWebFormRepeats(tx, { teamId, formId, repeats });
    if (!before) return false;
    if (before.repeats !== repeats) {
      await recordAuditEvent(
        {
          teamId,
          action: "web_form.updated",
          actor: options.actor,
          targetId: formId,
          details: { name: before.name, repeats },
        },
        tx,
      );
    }
    return true;
  });
}

/**
 * Turns the spam checks of the form's submissions on or off; audited as a change of the form's
 * settings (web_form.updated with { spamChecks }) when it changes. False when the team has no
 * such form.
 */
export async function setWebFormSpamChecks(options: FormChange & { spamChecks: boolean }): Promise<boolean> {
  const { teamId, formId, spamChecks } = options;
  return db().$transaction(async (tx) => {
    const before = await writeWebFormSpamChecks(tx, { teamId, formId, spamChecks });
    if (!before) return false;
    if (before.spamChecks !== spamChecks) {
      await recordAuditEvent(
        { teamId, action: "web_form.updated", actor: options.actor, targetId: formId, details: { name: before.name, spamChecks } },
        tx,
      );
    }
    return true;
  });
}

export async function setWebFormEnabled(options: FormChange & { enabled: boolean }): Promise<boolean> {
  const { teamId, formId, enabled } = options;
  return db().$transaction(async (tx) => {
    if (!(await writeWebFormEnabled(tx, { teamId, formId, enabled }))) return false;
    await recordAuditEvent(
      { teamId, action: enabled ? "web_form.enabled" : "web_form.disabled", actor: options.actor, targetId: formId },
      tx,
    );
    return true;
  });
}

export async function deleteWebForm(options: FormChange): Promise<boolean> {
  const { teamId, formId } = options;
  return db().$transaction(async (tx) => {
    const form = await removeWebForm(tx, { teamId, formId });
    if (!form) return false;
    // Its submissions held until confirmed (docs/consent.md) go with it: no form, no lead to create.
    await deleteChannelHeld(tx, { kind: "form", id: formId });
    await recordAuditEvent(
      { teamId, action: "web_form.deleted", actor: options.actor, targetId: formId, details: { name: form.name } },
      tx,
    );
    return true;
  });
}
