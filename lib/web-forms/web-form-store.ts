import { randomBytes } from "node:crypto";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";

// Every database access for web forms lives here. Changes are written with their audit
// event in one transaction, like the API keys'.

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
  team: { id: string; slug: string; defaultPhoneCountry: string | null };
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
  source: { select: { name: true } },
} as const;

export async function listWebForms(teamId: string): Promise<WebFormView[]> {
  const rows = await db().webForm.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW_SELECT });
  return rows.map(({ source, allowedOrigins, ...row }) => ({
    ...row,
    allowedOrigins: origins(allowedOrigins),
    sourceName: source?.name ?? null,
  }));
}

export async function findWebForm(options: { teamId: string; formId: string }): Promise<WebFormView | null> {
  const row = await db().webForm.findFirst({ where: { id: options.formId, teamId: options.teamId }, select: VIEW_SELECT });
  if (!row) return null;
  const { source, allowedOrigins, ...rest } = row;
  return { ...rest, allowedOrigins: origins(allowedOrigins), sourceName: source?.name ?? null };
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
      team: { select: { id: true, slug: true, defaultPhoneCountry: true } },
    },
  });
  return row && { ...row, allowedOrigins: origins(row.allowedOrigins) };
}

/** Whether the source is one of the team's (a form may only name its own team's). */
async function sourceOfTeam(teamId: string, sourceId: string | null): Promise<boolean> {
  if (sourceId === null) return true;
  return (await db().leadSource.count({ where: { id: sourceId, teamId } })) === 1;
}

export class UnknownSourceError extends Error {
  constructor() {
    super("That lead source no longer exists; choose another");
  }
}

export async function createWebForm(options: {
  teamId: string;
  settings: WebFormSettings;
  createdById: string | null;
  actor: AuditActor;
}): Promise<string> {
  const { teamId, settings } = options;
  if (!(await sourceOfTeam(teamId, settings.sourceId))) throw new UnknownSourceError();
  const id = generateFormId();
  await db().$transaction(async (tx) => {
    await tx.webForm.create({ data: { id, teamId, ...settings, createdById: options.createdById } });
    await recordAuditEvent(
      { teamId, action: "web_form.created", actor: options.actor, targetId: id, details: { name: settings.name } },
      tx,
    );
  });
  return id;
}

/** Replaces a form's settings; false when the team has no such form. */
export async function updateWebForm(options: {
  teamId: string;
  formId: string;
  settings: WebFormSettings;
  actor: AuditActor;
}): Promise<boolean> {
  const { teamId, formId, settings } = options;
  if (!(await sourceOfTeam(teamId, settings.sourceId))) throw new UnknownSourceError();
  return db().$transaction(async (tx) => {
    const { count } = await tx.webForm.updateMany({ where: { id: formId, teamId }, data: settings });
    if (!count) return false;
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

export async function setWebFormEnabled(options: {
  teamId: string;
  formId: string;
  enabled: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  const { teamId, formId, enabled } = options;
  return db().$transaction(async (tx) => {
    const { count } = await tx.webForm.updateMany({ where: { id: formId, teamId }, data: { enabled } });
    if (!count) return false;
    await recordAuditEvent(
      { teamId, action: enabled ? "web_form.enabled" : "web_form.disabled", actor: options.actor, targetId: formId },
      tx,
    );
    return true;
  });
}

export async function deleteWebForm(options: { teamId: string; formId: string; actor: AuditActor }): Promise<boolean> {
  const { teamId, formId } = options;
  return db().$transaction(async (tx) => {
    const form = await tx.webForm.findFirst({ where: { id: formId, teamId }, select: { name: true } });
    if (!form) return false;
    await tx.webForm.delete({ where: { id: formId } });
    await recordAuditEvent(
      { teamId, action: "web_form.deleted", actor: options.actor, targetId: formId, details: { name: form.name } },
      tx,
    );
    return true;
  });
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
export async function findHostedForm(formId: string): Promise<{ id: string; name: string; challenge: boolean; teamName: string } | null> {
  if (!isFormId(formId)) return null;
  const row = await db().webForm.findUnique({
    where: { id: formId },
    select: { id: true, name: true, challenge: true, enabled: true, team: { select: { name: true } } },
  });
  return row?.enabled ? { id: row.id, name: row.name, challenge: row.challenge, teamName: row.team.name } : null;
}
