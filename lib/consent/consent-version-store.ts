import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import type { AskedConsent } from "./consent-evidence";

// The versions of a channel's consent text (ConsentVersion, docs/consent.md): written once,
// never changed, never deleted while evidence names them. A store only stores: the audited
// change that makes a version is consent-changes.ts'.

/** What the team wrote: the text shown beside the box, its purpose, the policy link, required or not. */
export type ConsentSettings = { text: string; purpose: string; policyUrl: string | null; required: boolean };

export type ConsentVersionView = ConsentSettings & {
  id: string;
  formId: string | null;
  number: number;
  createdAt: Date;
  createdById: string | null;
};

const VERSION_SELECT = {
  id: true,
  formId: true,
  number: true,
  text: true,
  purpose: true,
  policyUrl: true,
  required: true,
  createdAt: true,
  createdById: true,
} as const;

export const newConsentVersionId = () => `cv_${randomUUID().replaceAll("-", "")}`;

/** The form's versions, newest first (its settings' history). */
export function listFormConsentVersions(options: { teamId: string; formId: string }): Promise<ConsentVersionView[]> {
  return db().consentVersion.findMany({
    where: { teamId: options.teamId, formId: options.formId },
    orderBy: { number: "desc" },
    select: VERSION_SELECT,
  });
}

/** The form's current version (what its page shows), null when it asks for none. */
export async function findFormConsent(options: { teamId: string; formId: string }): Promise<ConsentVersionView | null> {
  const form = await db().webForm.findFirst({
    where: { id: options.formId, teamId: options.teamId },
    select: { consentVersion: { select: VERSION_SELECT } },
  });
  return form?.consentVersion ?? null;
}

/** A version of this form by id (the one a visitor's page posted), for the intake; null when it is not the form's. */
export async function findPostedVersion(formId: string, versionId: string): Promise<AskedConsent | null> {
  if (!/^cv_[0-9a-f]{32}$/.test(versionId)) return null;
  return db().consentVersion.findFirst({ where: { id: versionId, formId }, select: { id: true, required: true } });
}

/** Versions by id, for a lead's evidence. */
export async function consentVersionsById(teamId: string, ids: readonly string[]): Promise<Map<string, ConsentVersionView>> {
  if (!ids.length) return new Map();
  const rows = await db().consentVersion.findMany({ where: { teamId, id: { in: [...ids] } }, select: VERSION_SELECT });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Makes the form's next version (its number one more than the last) and makes it the form's
 * current one, inside `tx`; null when the team has no such form.
 */
export async function insertFormConsentVersion(
  tx: Tx,
  options: { teamId: string; formId: string; settings: ConsentSettings; createdById: string | null; at: Date },
): Promise<ConsentVersionView | null> {
  const form = await tx.webForm.findFirst({ where: { id: options.formId, teamId: options.teamId }, select: { id: true } });
  if (!form) return null;
  const last = await tx.consentVersion.aggregate({ where: { formId: options.formId }, _max: { number: true } });
  const version = await tx.consentVersion.create({
    data: {
      id: newConsentVersionId(),
      teamId: options.teamId,
      formId: options.formId,
      number: (last._max.number ?? 0) + 1,
      ...options.settings,
      createdAt: options.at,
      createdById: options.createdById,
    },
    select: VERSION_SELECT,
  });
  await tx.webForm.update({ where: { id: options.formId }, data: { consentVersionId: version.id } });
  return version;
}

/** The form asks for no consent any more (its versions stay); the form's name, null when the team has no such form. */
export async function clearFormConsent(
  tx: Tx,
  options: { teamId: string; formId: string },
): Promise<{ name: string; had: boolean } | null> {
  const form = await tx.webForm.findFirst({
    where: { id: options.formId, teamId: options.teamId },
    select: { name: true, consentVersionId: true },
  });
  if (!form) return null;
  if (form.consentVersionId) await tx.webForm.update({ where: { id: options.formId }, data: { consentVersionId: null } });
  return { name: form.name, had: form.consentVersionId !== null };
}

/** Turns the form's double opt-in on or off inside `tx`. */
export async function setFormDoubleOptIn(tx: Tx, formId: string, doubleOptIn: boolean, hold: boolean): Promise<void> {
  await tx.webForm.update({ where: { id: formId }, data: { doubleOptIn, doubleOptInHold: hold } });
}

/** The form's current version inside `tx` (to tell an edit from a save of the same text). */
export async function currentFormConsent(tx: Tx, options: { teamId: string; formId: string }) {
  const form = await tx.webForm.findFirst({
    where: { id: options.formId, teamId: options.teamId },
    select: { name: true, doubleOptIn: true, doubleOptInHold: true, consentVersion: { select: VERSION_SELECT } },
  });
  return form && { name: form.name, doubleOptIn: form.doubleOptIn, hold: form.doubleOptInHold, version: form.consentVersion };
}
