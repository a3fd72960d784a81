import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import type { AskedConsent } from "./consent-evidence";

// The versions of a channel's consent text (ConsentVersion, docs/consent.md): written once,
// never changed, never deleted while evidence names them. A channel is a web form or a form
// builder's connection: each numbers its own versions and points at its current one. A store
// only stores: the audited change that makes a version is consent-changes.ts'.

/** The channel whose consent a version is: a web form or a connection, by id. */
export type ConsentChannelRef = { kind: "form"; id: string } | { kind: "connection"; id: string };

/** The version's column naming its channel. */
const owner = (channel: ConsentChannelRef) => (channel.kind === "form" ? { formId: channel.id } : { connectionId: channel.id });

/** The channel's row (its name, current version and double opt-in), the team's only; null otherwise. */
function channelRow(tx: Tx, teamId: string, channel: ConsentChannelRef) {
  const args = {
    where: { id: channel.id, teamId },
    select: { name: true, doubleOptIn: true, consentVersion: { select: VERSION_SELECT } },
  };
  return channel.kind === "form" ? tx.webForm.findFirst(args) : tx.connection.findFirst(args);
}

/** Writes the channel's consent columns inside `tx`. */
async function updateChannel(tx: Tx, channel: ConsentChannelRef, data: { consentVersionId?: string | null; doubleOptIn?: boolean }) {
  if (channel.kind === "form") await tx.webForm.update({ where: { id: channel.id }, data });
  else await tx.connection.update({ where: { id: channel.id }, data });
}

/** What the team wrote: the text shown beside the box, its purpose, the policy link, required or not. */
export type ConsentSettings = { text: string; purpose: string; policyUrl: string | null; required: boolean };

export type ConsentVersionView = ConsentSettings & {
  id: string;
  formId: string | null;
  connectionId: string | null;
  number: number;
  createdAt: Date;
  createdById: string | null;
};

const VERSION_SELECT = {
  id: true,
  formId: true,
  connectionId: true,
  number: true,
  text: true,
  purpose: true,
  policyUrl: true,
  required: true,
  createdAt: true,
  createdById: true,
} as const;

export const newConsentVersionId = () => `cv_${randomUUID().replaceAll("-", "")}`;

/** The channel's versions, newest first (its settings' history). */
export function listConsentVersions(options: { teamId: string; channel: ConsentChannelRef }): Promise<ConsentVersionView[]> {
  return db().consentVersion.findMany({
    where: { teamId: options.teamId, ...owner(options.channel) },
    orderBy: { number: "desc" },
    select: VERSION_SELECT,
  });
}

/** The form's versions, newest first. */
export const listFormConsentVersions = (options: { teamId: string; formId: string }) =>
  listConsentVersions({ teamId: options.teamId, channel: { kind: "form", id: options.formId } });

/** The channel's current version (what its page shows), null when it asks for none. */
export async function findChannelConsent(options: { teamId: string; channel: ConsentChannelRef }): Promise<ConsentVersionView | null> {
  return (await channelRow(db(), options.teamId, options.channel))?.consentVersion ?? null;
}

/** The form's current version, null when it asks for none. */
export const findFormConsent = (options: { teamId: string; formId: string }) =>
  findChannelConsent({ teamId: options.teamId, channel: { kind: "form", id: options.formId } });

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
 * Makes the channel's next version (its number one more than the last) and makes it the
 * channel's current one, inside `tx`; null when the team has no such channel.
 */
export async function insertConsentVersion(
  tx: Tx,
  options: { teamId: string; channel: ConsentChannelRef; settings: ConsentSettings; createdById: string | null; at: Date },
): Promise<ConsentVersionView | null> {
  if (!(await channelRow(tx, options.teamId, options.channel))) return null;
  const last = await tx.consentVersion.aggregate({ where: owner(options.channel), _max: { number: true } });
  const version = await tx.consentVersion.create({
    data: {
      id: newConsentVersionId(),
      teamId: options.teamId,
      ...owner(options.channel),
      number: (last._max.number ?? 0) + 1,
      ...options.settings,
      createdAt: options.at,
      createdById: options.createdById,
    },
    select: VERSION_SELECT,
  });
  await updateChannel(tx, options.channel, { consentVersionId: version.id });
  return version;
}

/** The channel asks for no consent any more (its versions stay); whether it asked before. */
export async function clearChannelConsent(tx: Tx, channel: ConsentChannelRef): Promise<void> {
  await updateChannel(tx, channel, { consentVersionId: null });
}

/** Turns the channel's double opt-in on or off inside `tx`; `hold` ("only once confirmed") is a web form's only. */
export async function setChannelDoubleOptIn(tx: Tx, channel: ConsentChannelRef, doubleOptIn: boolean, hold: boolean): Promise<void> {
  if (channel.kind === "form") await tx.webForm.update({ where: { id: channel.id }, data: { doubleOptIn, doubleOptInHold: hold } });
  else await updateChannel(tx, channel, { doubleOptIn });
}

/** The channel's name, double opt-in (and a form's hold) and current version inside `tx` (to tell an edit from a save of the same text); null when the team has no such channel. */
export async function currentChannelConsent(tx: Tx, options: { teamId: string; channel: ConsentChannelRef }) {
  const { teamId, channel } = options;
  if (channel.kind === "form") {
    const form = await tx.webForm.findFirst({
      where: { id: channel.id, teamId },
      select: { name: true, doubleOptIn: true, doubleOptInHold: true, consentVersion: { select: VERSION_SELECT } },
    });
    return form && { name: form.name, doubleOptIn: form.doubleOptIn, hold: form.doubleOptInHold, version: form.consentVersion };
  }
  const row = await channelRow(tx, teamId, channel);
  return row && { name: row.name, doubleOptIn: row.doubleOptIn, hold: false, version: row.consentVersion };
}
