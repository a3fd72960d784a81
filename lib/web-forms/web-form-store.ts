import { INTAKE_TEAM_SELECT, type IntakeTeam } from "../teams/intake-team";
import { randomBytes } from "node:crypto";
import { db, type Tx } from "../db/client";
import { parseRepeats, type Repeats } from "../leads/repeats";

// Every database access for web forms lives here, and nothing else: a store only stores.
// A team's changes to its forms, each written with its audit event in one transaction,
// are web-form-changes.ts.

/** The settings a team chooses for a form (validated by web-form-settings.ts). */
export type WebFormSettings = {
  name: string;
  allowedOrigins: string[];
  sourceId: string | null;
  successUrl: string | null;
  challenge: boolean;
};

export type WebFormView = WebFormSettings & {
  id: string;
  /** What a repeat submission does (docs/leads.md "Repeat submissions"); changed by web-form-changes.ts' setWebFormRepeats. */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"); changed by setWebFormSpamChecks. */
  spamChecks: boolean;
  /** Double opt-in (docs/consent.md); changed with the consent (consent-changes.ts' setFormConsent). */
  doubleOptIn: boolean;
  /** With double opt-in: "Create the lead only once confirmed" (true) or "now, pending" (false). */
  doubleOptInHold: boolean;
  enabled: boolean;
  spamCount: number;
  sourceName: string | null;
  createdAt: Date;
};

/** What the public endpoint needs to take a submission. */
export type FormForIntake = {
  id: string;
  enabled: boolean;
  allowedOrigins: string[];
  /** The form's lead source (null: the request's `source` field decides). */
  source: { id: string; name: string } | null;
  successUrl: string | null;
  challenge: boolean;
  /** What the form does with a person's repeat submission (lib/leads/repeats.ts). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md). */
  spamChecks: boolean;
  /** The consent it asks for, its current version (docs/consent.md); null: none. */
  consentVersion: { id: string; required: boolean } | null;
  /** Double opt-in (docs/consent.md): a consent given is emailed a confirmation link. */
  doubleOptIn: boolean;
  /** With double opt-in, the lead is created only once the person confirms (the submission is held meanwhile). */
  doubleOptInHold: boolean;
  team: IntakeTeam;
};

const FORM_ID = /^form_[A-Za-z0-9_-]{16}$/;

/** A public form id: "form_" and 96 random bits (not a secret: it is in the page's HTML). */
export function generateFormId(): string {
  return `form_${randomBytes(12).toString("base64url")}`;
}

export const isFormId = (text: string) => FORM_ID.test(text);

const origins = (json: unknown): string[] => (Array.isArray(json) ? json.filter((o): o is string => typeof o === "string") : []);

const VIEW_SELECT = {
  id: true,
  name: true,
  allowedOrigins: true,
  sourceId: true,
  successUrl: true,
  challenge: true,
  enabled: true,
  spamCount: true,
  createdAt: true,
  repeats: true,
  spamChecks: true,
  doubleOptIn: true,
  doubleOptInHold: true,
  source: { select: { name: true } },
} as const;

export async function listWebForms(teamId: string): Promise<WebFormView[]> {
  const rows = await db().webForm.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW_SELECT });
  return rows.map(({ source, allowedOrigins, repeats, ...row }) => ({
    ...row,
    allowedOrigins: origins(allowedOrigins),
    repeats: parseRepeats(repeats) ?? "new",
    sourceName: source?.name ?? null,
  }));
}

export async function findWebForm(options: { teamId: string; formId: string }): Promise<WebFormView | null> {
  const row = await db().webForm.findFirst({ where: { id: options.formId, teamId: options.teamId }, select: VIEW_SELECT });
  if (!row) return null;
  const { source, allowedOrigins, repeats, ...rest } = row;
  return { ...rest, allowedOrigins: origins(allowedOrigins), repeats: parseRepeats(repeats) ?? "new", sourceName: source?.name ?? null };
}

/** The form with its team, for the public endpoint; null when there is no such form. */
export async function findFormForIntake(formId: string): Promise<FormForIntake | null> {
  if (!isFormId(formId)) return null;
  const row = await db().webForm.findUnique({
    where: { id: formId },
    select: {
      id: true,
      enabled: true,
      allowedOrigins: true,
      source: { select: { id: true, name: true } },
      successUrl: true,
      challenge: true,
      repeats: true,
      spamChecks: true,
      consentVersion: { select: { id: true, required: true } },
      doubleOptIn: true,
      doubleOptInHold: true,
      team: { select: INTAKE_TEAM_SELECT },
    },
  });
  return row && { ...row, allowedOrigins: origins(row.allowedOrigins), repeats: parseRepeats(row.repeats) ?? "new" };
}

/** Whether the lead source is one of the team's. */
export async function isTeamSource(options: { teamId: string; sourceId: string }): Promise<boolean> {
  return (await db().leadSource.count({ where: { id: options.sourceId, teamId: options.teamId } })) === 1;
}

export async function insertWebForm(
  tx: Tx,
  form: { id: string; teamId: string; settings: WebFormSettings; repeats: Repeats; spamChecks: boolean; createdById: string | null },
): Promise<void> {
  await tx.webForm.create({
    data: {
      id: form.id,
      teamId: form.teamId,
      ...form.settings,
      repeats: form.repeats,
      spamChecks: form.spamChecks,
      createdById: form.createdById,
    },
  });
}

/** Writes a form's settings; false when the team has no such form. */
export async function writeWebFormSettings(
  tx: Tx,
  options: { teamId: string; formId: string; settings: WebFormSettings },
): Promise<boolean> {
  const { count } = await tx.webForm.updateMany({ where: { id: options.formId, teamId: options.teamId }, data: options.settings });
  return count > 0;
}

/** Sets a form's repeat setting and returns its name and what the setting was; null when the team has no such form. */
export async function writeWebFormRepeats(
  tx: Tx,
  options: { teamId: string; formId: string; repeats: Repeats },
): Promise<{ name: string; repeats: Repeats } | null> {
  const form = await tx.webForm.findFirst({ where: { id: options.formId, teamId: options.teamId }, select: { name: true, repeats: true } });
  if (!form) return null;
  await tx.webForm.update({ where: { id: options.formId }, data: { repeats: options.repeats } });
  return { name: form.name, repeats: parseRepeats(form.repeats) ?? "new" };
}

/** Turns a form's spam checks on or off and returns its name and what they were; null when the team has no such form. */
export async function writeWebFormSpamChecks(
  tx: Tx,
  options: { teamId: string; formId: string; spamChecks: boolean },
): Promise<{ name: string; spamChecks: boolean } | null> {
  const form = await tx.webForm.findFirst({
    where: { id: options.formId, teamId: options.teamId },
    select: { name: true, spamChecks: true },
  });
  if (!form) return null;
  await tx.webForm.update({ where: { id: options.formId }, data: { spamChecks: options.spamChecks } });
  return form;
}

/** Enables or disables a form; false when the team has no such form. */
export async function writeWebFormEnabled(tx: Tx, options: { teamId: string; formId: string; enabled: boolean }): Promise<boolean> {
  const { count } = await tx.webForm.updateMany({
    where: { id: options.formId, teamId: options.teamId },
    data: { enabled: options.enabled },
  });
  return count > 0;
}

/** Deletes the team's form and returns its name; null when the team has no such form. */
export async function removeWebForm(tx: Tx, options: { teamId: string; formId: string }): Promise<{ name: string } | null> {
  const form = await tx.webForm.findFirst({ where: { id: options.formId, teamId: options.teamId }, select: { name: true } });
  if (!form) return null;
  await tx.webForm.delete({ where: { id: options.formId } });
  return form;
}

/** Counts one honeypot submission on the form's card. */
export async function countSpam(formId: string): Promise<void> {
  await db().webForm.updateMany({ where: { id: formId }, data: { spamCount: { increment: 1 } } });
}

/** The team's form ids and names, oldest first (the lead list's "created by form" filter). */
export async function listWebFormLabels(teamId: string): Promise<{ id: string; name: string }[]> {
  return db().webForm.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true } });
}

/** Form names by id, for leads and request logs that name a form (deleted forms are absent). */
export async function webFormNames(teamId: string, formIds: string[]): Promise<Map<string, string>> {
  if (!formIds.length) return new Map();
  const rows = await db().webForm.findMany({ where: { teamId, id: { in: formIds } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** What the hosted form page /f/<id> shows; null when the form is missing or disabled. */
/** Whether a form confirms consent by email (its thank-you page then says to look for the email); false for an unknown form. */
export async function formConfirmsByEmail(formId: string): Promise<boolean> {
  if (!isFormId(formId)) return false;
  const row = await db().webForm.findUnique({ where: { id: formId }, select: { doubleOptIn: true, consentVersionId: true } });
  return Boolean(row?.doubleOptIn && row.consentVersionId);
}

export async function findHostedForm(formId: string): Promise<{
  id: string;
  name: string;
  challenge: boolean;
  teamName: string;
  consent: { id: string; text: string; policyUrl: string | null; required: boolean } | null;
} | null> {
  if (!isFormId(formId)) return null;
  const row = await db().webForm.findUnique({
    where: { id: formId },
    select: {
      id: true,
      name: true,
      challenge: true,
      enabled: true,
      team: { select: { name: true } },
      consentVersion: { select: { id: true, text: true, policyUrl: true, required: true } },
    },
  });
  return row?.enabled
    ? { id: row.id, name: row.name, challenge: row.challenge, teamName: row.team.name, consent: row.consentVersion }
    : null;
}
