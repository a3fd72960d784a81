import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import type { ConsentDraft, ConsentStatus } from "./consent-evidence";

// A lead's consent evidence (LeadConsent, docs/consent.md): the rows the lead writer derives at
// intake (lib/leads/lead-writer*.ts write them in the lead's transaction, LEAD_CONSENT_COLUMNS),
// the consents recorded on the lead's page, and their reads. Rows are never updated; a merge
// moves them with their submissions (lib/leads/lead-merge-store.ts), deleting a lead or a
// submission deletes them (foreign keys), so does an erasure of the person.

export const newLeadConsentId = () => `lc_${randomUUID().replaceAll("-", "")}`;

/** A lead's current consent: its newest evidence's status, or "none". */
export type CurrentConsent = ConsentStatus | "none";

/** Consent given another way, as a member records it. */
export type RecordedConsent = { status: ConsentStatus; text: string; purpose: string; note: string; consentAt: Date };

export type LeadConsentItem = ConsentDraft & {
  id: string;
  submissionId: string | null;
  note: string | null;
  recordedById: string | null;
  createdAt: Date;
  /** The version's own text and purpose, when a web form's version is named. */
  version: { number: number; text: string; purpose: string; policyUrl: string | null; required: boolean; formId: string | null } | null;
};

const ITEM_SELECT = {
  id: true,
  submissionId: true,
  status: true,
  channel: true,
  versionId: true,
  text: true,
  purpose: true,
  consentAt: true,
  ip: true,
  userAgent: true,
  pageUrl: true,
  note: true,
  recordedById: true,
  createdAt: true,
  version: { select: { number: true, text: true, purpose: true, policyUrl: true, required: true, formId: true } },
} as const;

/** The lead's evidence, newest first (its current status is the first's). */
export async function findLeadConsents(options: { teamId: string; leadId: string }): Promise<LeadConsentItem[]> {
  const rows = await db().leadConsent.findMany({
    where: { teamId: options.teamId, leadId: options.leadId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: ITEM_SELECT,
  });
  return rows as LeadConsentItem[];
}

/** What a piece of evidence says the person agreed to: the version's text (a web form's) or the text sent or recorded. */
export const consentText = (item: Pick<LeadConsentItem, "text" | "version">) => item.version?.text ?? item.text;
export const consentPurpose = (item: Pick<LeadConsentItem, "purpose" | "version">) => item.version?.purpose ?? item.purpose;

/** Each lead's newest evidence (the export's columns): absent for a lead with none. */
export async function latestConsents(leadIds: readonly string[]): Promise<Map<string, LeadConsentItem>> {
  if (!leadIds.length) return new Map();
  const rows = (await db().leadConsent.findMany({
    where: { leadId: { in: [...leadIds] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { ...ITEM_SELECT, leadId: true },
  })) as (LeadConsentItem & { leadId: string })[];
  const latest = new Map<string, LeadConsentItem>();
  for (const row of rows) if (!latest.has(row.leadId)) latest.set(row.leadId, row);
  return latest;
}

/** Writes a recorded consent on the team's lead inside `tx`; null when the team has no such lead. */
export async function insertRecordedConsent(
  tx: Tx,
  options: { teamId: string; leadId: string; consent: RecordedConsent; recordedById: string | null; at: Date },
): Promise<{ id: string } | null> {
  const lead = await tx.lead.findFirst({ where: { id: options.leadId, teamId: options.teamId }, select: { id: true } });
  if (!lead) return null;
  const { consent } = options;
  return tx.leadConsent.create({
    data: {
      id: newLeadConsentId(),
      leadId: lead.id,
      teamId: options.teamId,
      submissionId: null,
      status: consent.status,
      channel: "manual",
      versionId: null,
      text: consent.text,
      purpose: consent.purpose,
      consentAt: consent.consentAt,
      note: consent.note,
      recordedById: options.recordedById,
      createdAt: options.at,
    },
    select: { id: true },
  });
}

/**
 * Writes the evidence of a person's answer on the team's lead inside `tx`: confirmed or
 * withdrawn by a double opt-in email's link (channel "email": the request's address and user
 * agent), or withdrawn as a member recorded it on the lead's page (channel "manual": the
 * member and a note). It names the version, text and purpose of the lead's newest evidence of
 * consent asked (pending, given or confirmed). Null when the team has no such lead.
 */
export async function insertAnswerConsent(
  tx: Tx,
  options: {
    teamId: string;
    leadId: string;
    status: "confirmed" | "withdrawn";
    channel: "email" | "manual";
    ip?: string | null;
    userAgent?: string | null;
    note?: string | null;
    recordedById?: string | null;
    at: Date;
  },
): Promise<{ id: string; versionId: string | null } | null> {
  const lead = await tx.lead.findFirst({ where: { id: options.leadId, teamId: options.teamId }, select: { id: true } });
  if (!lead) return null;
  const asked = await tx.leadConsent.findFirst({
    where: { leadId: options.leadId, status: { in: ["pending", "given", "confirmed"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { versionId: true, text: true, purpose: true },
  });
  return tx.leadConsent.create({
    data: {
      id: newLeadConsentId(),
      leadId: options.leadId,
      teamId: options.teamId,
      submissionId: null,
      status: options.status,
      channel: options.channel,
      versionId: asked?.versionId ?? null,
      text: asked?.text ?? null,
      purpose: asked?.purpose ?? null,
      consentAt: options.at,
      ip: options.ip ?? null,
      userAgent: options.userAgent?.slice(0, 2_000) || null,
      pageUrl: null,
      note: options.note ?? null,
      recordedById: options.recordedById ?? null,
      createdAt: options.at,
    },
    select: { id: true, versionId: true },
  });
}

/** The lead's address inside `tx` (what a withdrawal puts on the suppression list), null when it has none. */
export async function leadEmail(tx: Tx, leadId: string): Promise<string | null> {
  return (await tx.lead.findUnique({ where: { id: leadId }, select: { email: true } }))?.email ?? null;
}

/** The status of the lead's newest evidence inside `tx`, null when it has none. */
export async function newestConsentStatus(tx: Tx, leadId: string): Promise<string | null> {
  const newest = await tx.leadConsent.findFirst({
    where: { leadId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { status: true },
  });
  return newest?.status ?? null;
}

/** The team's lead's address and current consent status (its newest evidence's); null when the team has no such lead. */
export async function leadConsentState(options: {
  teamId: string;
  leadId: string;
}): Promise<{ email: string | null; status: CurrentConsent } | null> {
  const lead = await db().lead.findFirst({
    where: { id: options.leadId, teamId: options.teamId },
    select: { email: true, consents: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1, select: { status: true } } },
  });
  return lead && { email: lead.email, status: (lead.consents[0]?.status as ConsentStatus | undefined) ?? "none" };
}

/** The team's lead's current consent status inside `tx`; null when the team has no such lead. */
export async function teamLeadConsentStatus(
  tx: Tx,
  options: { teamId: string; leadId: string },
): Promise<{ status: CurrentConsent } | null> {
  const lead = await tx.lead.findFirst({
    where: { id: options.leadId, teamId: options.teamId },
    select: { consents: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1, select: { status: true } } },
  });
  return lead && { status: (lead.consents[0]?.status as ConsentStatus | undefined) ?? "none" };
}

/** Writes "withdrew consent before" marks (lib/consent/import-suppression.ts) on the leads inside `tx`. */
export async function insertMarks(
  tx: Tx,
  options: { teamId: string; marks: readonly { leadId: string; draft: ConsentDraft }[]; at: Date },
): Promise<void> {
  if (!options.marks.length) return;
  await tx.leadConsent.createMany({
    data: options.marks.map(({ leadId, draft }) => ({
      ...draft,
      note: draft.note ?? null,
      id: newLeadConsentId(),
      leadId,
      teamId: options.teamId,
      submissionId: null,
      recordedById: null,
      createdAt: options.at,
    })),
  });
}
