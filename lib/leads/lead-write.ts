import { randomUUID } from "node:crypto";
import type { ConsentDraft } from "../consent/consent-evidence";
import { newLeadConsentId } from "../consent/lead-consent-store";
import type { NewJob } from "../jobs/job-store";
import { assignedEmailJob, submittedEmailJob } from "../notifications/assignment-email";
import { leadSubmittedJobs } from "../webhooks/lead-submitted-event";
import type { LeadStatus } from "./lead-status";
import { newLeadChatJobs, repeatChatJobs, type ChatRecipient } from "../chat/chat-outbox";
import { leadCreatedJobs } from "../notifications/lead-created-outbox";
import type { ColumnType } from "../db/column-values";
import { readDriverTime } from "../db/driver";
import type { BodyEncoding } from "../request-log/request-log-store";
import { API_SOURCE_NAME, type LeadSource } from "../teams/lead-sources";
import type { LeadOrigin, LeadOwner } from "../webhooks/lead-created-event";
import { formatLeadId } from "./lead-id";
import { fillEmpty, type Fillable } from "./fill-empty";
import { derivedColumns, searchKeys, type NewLead } from "./new-lead";
import { REQUEST_NAMES } from "./request-names";
import type { RoutedLead } from "../routing/rule-conditions";
import { contactLookup, pickRepeatLead, type MatchCandidate } from "./repeat-match";

// What the lead writer (lib/leads/lead-writer.ts) writes, and the rules its SQLite and
// PostgreSQL statements share: the counter SQLite's ids come from (PostgreSQL's come from a
// sequence: lead-number-store.ts), the id format, the fall-back to
// the team's "API" source, the stored row (search keys, id, seq, time), its submission and
// the outbox rows.

/** The Counter row lead ids are allocated from on SQLite; on PostgreSQL only a lock some writers take (lead-writer-postgres.ts batchLocksSql). */
export const LEAD_COUNTER = "lead";

/**
 * The statement that advances the lead counter by `increment` (a number or a parameter) and
 * returns its new value: the seqs value − increment + 1 … value are the caller's (SQLite). The
 * row lock is held to the commit; a rolled-back transaction gives its numbers back. `where` narrows it further (PostgreSQL's CTE).
 */
export function counterSql(increment: string, where = ""): string {
  return `UPDATE "Counter" SET "value" = "value" + ${increment} WHERE "name" = '${LEAD_COUNTER}'${where} RETURNING "value"`;
}

/** The error when the counter row is gone (the migration creates it; nothing deletes it). */
export const missingCounter = () => new Error(`The "${LEAD_COUNTER}" counter row is missing`);

/** The lead as the rules made it; the source and the currency are settled in the transaction. */
export type LeadFields = Omit<NewLead, "sourceId" | "currency">;

/** One lead and everything that commits with it. */
export type LeadWrite = {
  lead: LeadFields;
  /** A source chosen by the channel (a web form's), or the request's `source` field (spec 2.1). */
  source: { chosen: LeadSource } | { requested: string | undefined };
  /** The request-log row of the submission (status 201 a new lead, 200 added to one: requestLogRow), when it came over HTTP. */
  requestLog?: { apiKeyId: string | null; formId: string | null; ip: string | null; encoding: BodyEncoding } | null;
  /** An Idempotency-Key claim, completed with the response for the lead (new, or `added` to). */
  claim?: {
    id: string;
    token: string;
    response: (leadId: string, added: boolean) => { status: number; body: string };
    lost: () => Error;
  } | null;
  /** A proof-of-work solution, spent once. */
  spentChallenge?: { id: string; expiresAt: Date; replayed: () => Error } | null;
  /**
   * A form builder's delivery: its log row names the lead, once per submission; `repeated` is
   * thrown (rolling the lead back) when the submission already made a lead.
   */
  delivery?: { id: string; connectionId: string; submissionId: string; answers: unknown; repeated: () => Error } | null;
  /** What the "lead created" event says created the lead, and whether emails are sent (SMTP set). */
  events: { origin: LeadOrigin; emails: boolean };
  /**
   * A channel set to "add" (lib/leads/repeats.ts): the person's lead (lib/leads/repeat-match.ts)
   * whose last submission is at or after `since` takes this submission instead of a new lead
   * being made (joinLead). Null or absent: a new lead.
   */
  repeat?: { since: Date } | null;
  /**
   * The spam checks flagged it (lib/spam/intake-spam.ts): it is kept in the quarantine
   * (quarantineRow) under a lead number of its own, answered as a new lead is, and nothing
   * else happens (no lead, routing, outbox row or join).
   */
  quarantine?: Quarantine | null;
  /**
   * A quarantined submission released into the list ("Not spam", lib/spam/quarantine-release.ts):
   * written as a new lead under the number it was answered with (`seq`, its id), its quarantine
   * row deleted in the same transaction; `gone` is thrown when that row is no longer there (a
   * release at the same moment, an erasure). `allow`: the sender's address, added to the
   * team's allow list in that transaction (allowRow) unless it is there already.
   */
  release?: { seq: number; gone: () => Error; allow?: { value: string; note: string; createdById: string | null } | null } | null;
  /**
   * The consent evidence derived from the submission (lib/consent/consent-evidence.ts): written
   * with its submission (consentRow), to the new lead or the lead it joins; null: none.
   */
  consent?: ConsentDraft | null;
  now: Date;
};

/** Why a submission went to the quarantine: its score, the reasons' codes, fields and points, and the sender's address. */
export type Quarantine = { score: number; reasons: { code: string; field: string; points: number }[]; ip: string | null };

/**
 * What was written: a new lead (its id, source, currency, the owner routing gave it, null:
 * unassigned) or the person's lead the submission joined (`added`, its owner kept); and the
 * count of outbox rows.
 */
export type LeadWritten =
  | { added: false; quarantined?: false; leadId: string; source: LeadSource; currency: string; ownerId: string | null; jobs: number }
  | { added: true; quarantined?: false; leadId: string; ownerId: string | null; jobs: number }
  | { added: false; quarantined: true; leadId: string; ownerId: null; jobs: 0 };

/** The HTTP status of a written submission: 201 a new lead, 200 one added to the person's lead. */
export const writtenStatus = (added: boolean) => (added ? 200 : 201);

/** One lead's outcome in a group commit: what was written, or the error that rolled it back alone. */
export type BatchOutcome = { written: LeadWritten } | { error: unknown };

/** Thrown inside the transaction when the team has no API source yet (lead-writer.ts makes it, then writes again). */
export class MissingApiSource extends Error {}

/** The delivery's log row for the lead `leadId`, made or `added` to (CONNECTION_DELIVERY_COLUMNS). */
export function deliveryRow(write: LeadWrite, leadId: string, added = false) {
  const delivery = write.delivery!;
  return {
    id: delivery.id,
    connectionId: delivery.connectionId,
    teamId: write.lead.teamId,
    submissionId: delivery.submissionId,
    outcome: "created",
    status: writtenStatus(added),
    leadId,
    answers: delivery.answers,
    createdAt: write.now,
    lastAttemptAt: write.now,
  };
}

const API_SOURCE_KEY = API_SOURCE_NAME.toLowerCase();

/**
 * The source keys a requested source is looked up by, best first: the requested name, else
 * the team's "API" source (spec 2.1: an unknown or missing source falls back to it). Null
 * when the channel chose the source.
 */
export function sourceKeys(source: LeadWrite["source"]): [string, string] | null {
  if ("chosen" in source) return null;
  const wanted = source.requested?.trim().toLowerCase();
  return [wanted || API_SOURCE_KEY, API_SOURCE_KEY];
}

/** Of the team's sources found by sourceKeys, the one the lead gets. */
export function pickSource<T extends { nameKey: string }>(found: readonly T[], [wanted, api]: [string, string]): T | undefined {
  return found.find((row) => row.nameKey === wanted) ?? found.find((row) => row.nameKey === api);
}

/** The request-log row of a submission over HTTP (status 201 a new lead, 200 added to one; a quarantined one names its reasons). */
export function requestLogRow(write: LeadWrite, leadId: string, added: boolean) {
  const spam = write.quarantine ? [...new Set(write.quarantine.reasons.map((reason) => reason.code))].join(" ") : null;
  return { ...write.requestLog!, teamId: write.lead.teamId, createdAt: write.now, status: writtenStatus(added), leadId, error: null, spam };
}

/** The quarantine's row of a flagged submission under the lead number `seq` (QUARANTINED_LEAD_COLUMNS). */
export function quarantineRow(write: Pick<LeadWrite, "lead" | "source" | "quarantine" | "consent" | "now">, seq: number) {
  const { lead } = write;
  const quarantine = write.quarantine!;
  return {
    id: formatLeadId(seq),
    seq,
    teamId: lead.teamId,
    apiKeyId: lead.apiKeyId,
    formId: lead.formId,
    connectionId: lead.connectionId,
    name: [lead.firstName, lead.lastName].filter(Boolean).join(" "),
    emailKey: searchKeys(lead).emailKey,
    phone: lead.phone,
    mobileNo: lead.mobileNo,
    lead,
    source: write.source,
    score: quarantine.score,
    reasons: quarantine.reasons,
    ip: quarantine.ip,
    // Its evidence, kept for a release ("Not spam"): a quarantined submission writes none.
    consent: write.consent ?? null,
    createdAt: write.now,
  };
}

/** The allow-list entry of a release (LeadWrite.release.allow; SPAM_LIST_ENTRY_COLUMNS), or null for none. */
export function allowRow(write: LeadWrite) {
  const allow = write.release?.allow;
  if (!allow) return null;
  return { id: `sle_${randomUUID().replaceAll("-", "")}`, teamId: write.lead.teamId, list: "allow_email", ...allow, createdAt: write.now };
}

/** A lead's stored row: its fields, their search keys, its id from its seq, its time. */
export function leadRow<T extends NewLead>(lead: T, seq: number, createdAt: Date) {
  return { ...lead, ...derivedColumns(lead), id: formatLeadId(seq), seq, createdAt };
}

/** What received a submission. */
export type SubmissionChannel = "api" | "form" | "connection" | "import";

/**
 * The channel of a submission by what received it: a connection, else an import, else a web
 * form, else an API key. The migration that gave older leads their first submission
 * (20261201000002_lead_submissions) reads a lead's columns in this same order.
 */
export function submissionChannel(origin: {
  connectionId?: string | null;
  importId?: string | null;
  formId?: string | null;
}): SubmissionChannel {
  if (origin.connectionId) return "connection";
  if (origin.importId) return "import";
  if (origin.formId) return "form";
  return "api";
}

/** A lead's first submission's id: the migration gave every older lead's the same. Unique, as lead ids are never reused. */
export const firstSubmissionId = (leadId: string) => `sub_${leadId}`;
/** firstSubmissionId in SQL, of the lead id `leadId` (an expression): PostgreSQL's one-statement write. */
export const firstSubmissionIdSql = (leadId: string) => `'sub_' || ${leadId}`;
/** Any other submission's id (an import's fill of a lead). */
export const newSubmissionId = () => `sub_${randomUUID().replaceAll("-", "")}`;

type SubmittedLead = Omit<LeadFields, "teamId" | "apiKeyId" | "formId" | "connectionId">;

/** A submission's fields by their spec name (the lead.created event's), each from the lead's column; a skipped one as typed. */
const SUBMISSION_FIELDS: [string, (lead: SubmittedLead) => unknown][] = [
  ["first_name", (lead) => lead.firstName],
  ["last_name", (lead) => lead.lastName],
  ["email", (lead) => lead.email],
  ["phone", (lead) => lead.phone ?? lead.skippedPhone],
  ["mobile_no", (lead) => lead.mobileNo ?? lead.skippedMobileNo],
  ["organization", (lead) => lead.organization],
  ["job_title", (lead) => lead.jobTitle],
  ["website", (lead) => lead.website ?? lead.skippedWebsite],
  ["territory", (lead) => lead.territory],
  ["industry", (lead) => lead.industry],
  ["annual_revenue", (lead) => lead.annualRevenue],
  ["no_of_employees", (lead) => lead.noOfEmployees],
  ["utm_source", (lead) => lead.utmSource],
  ["utm_medium", (lead) => lead.utmMedium],
  ["utm_campaign", (lead) => lead.utmCampaign],
  ["utm_term", (lead) => lead.utmTerm],
  ["utm_content", (lead) => lead.utmContent],
];

/**
 * What a submission sent, as the channel parsed it (the lead writer's fields): its non-null
 * values by spec name, a phone, mobile or website skipped as invalid as typed (named in
 * skippedFields), and the extra fields, when any, under "extra_fields". Compact: what was
 * not sent is left out.
 */
export function submissionFields(lead: SubmittedLead): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of SUBMISSION_FIELDS) {
    const v = value(lead);
    if (v !== null && v !== undefined) fields[name] = v;
  }
  if (Object.keys(lead.extraFields).length) fields.extra_fields = lead.extraFields;
  return fields;
}

/** The fields of a submission that were skipped as invalid (spec 2.1), by spec name. */
export function skippedFields(lead: Pick<LeadFields, "skippedPhone" | "skippedMobileNo" | "skippedWebsite">): string[] {
  const skipped: string[] = [];
  if (lead.skippedPhone !== null) skipped.push("phone");
  if (lead.skippedMobileNo !== null) skipped.push("mobile_no");
  if (lead.skippedWebsite !== null) skipped.push("website");
  return skipped;
}

/** The row of a submission of `lead`'s fields to the lead `leadId` (LEAD_SUBMISSION_COLUMNS). */
export function submissionRow(
  lead: LeadFields & { importId?: string | null },
  submission: { id: string; leadId: string; createdAt: Date },
) {
  return {
    ...submission,
    teamId: lead.teamId,
    channel: submissionChannel(lead),
    apiKeyId: lead.apiKeyId,
    formId: lead.formId,
    connectionId: lead.connectionId,
    importId: lead.importId ?? null,
    fields: submissionFields(lead),
    skipped: skippedFields(lead),
  };
}

/** The evidence row of the submission `submissionId` of the lead `leadId` (LEAD_CONSENT_COLUMNS). */
export function consentRow(write: LeadWrite, leadId: string, submissionId: string) {
  return {
    ...write.consent!,
    id: newLeadConsentId(),
    leadId,
    teamId: write.lead.teamId,
    submissionId,
    note: write.consent!.note ?? null,
    recordedById: null,
    createdAt: write.now,
  };
}

/** Who hears of a new lead; the team's slug is read only when someone does. `chats`: its chat destinations that post new leads. */
export type Recipients = { teamSlug: () => string; endpoints: string[]; subscribers: string[]; chats: ChatRecipient[] };

/**
 * The outbox rows of a new lead: a webhook delivery per endpoint, an email per subscriber,
 * and the email to the owner routing gave it when emails are on and they want it
 * (`notifyOwner`, from the routing the lead was assigned by: no statement more; nor is the
 * team's slug read for it).
 */
export function outboxJobs(
  write: LeadWrite,
  created: { leadId: string; lead: NewLead; sourceName: string; owner: LeadOwner; notifyOwner: boolean },
  recipients: Recipients,
): NewJob[] {
  const { notifyOwner, ...event } = created;
  const jobs =
    recipients.endpoints.length || recipients.subscribers.length
      ? leadCreatedJobs({
          endpoints: recipients.endpoints,
          subscribers: recipients.subscribers,
          team: { id: write.lead.teamId, slug: recipients.teamSlug() },
          ...event,
          origin: write.events.origin,
          consent: write.consent,
          at: write.now,
        })
      : [];
  if (recipients.chats.length) {
    jobs.push(
      ...newLeadChatJobs({
        chats: recipients.chats,
        team: { id: write.lead.teamId, slug: recipients.teamSlug() },
        ...event,
        origin: write.events.origin,
        at: write.now,
      }),
    );
  }
  if (write.events.emails && notifyOwner && event.owner) {
    jobs.push(assignedEmailJob({ teamId: write.lead.teamId, userId: event.owner.id, leadId: event.leadId, at: write.now }));
  }
  return jobs;
}

/** A stored lead as the add path reads it: what matching, the window and the fill need. */
export type StoredLead = MatchCandidate &
  Fillable & {
    firstName: string;
    organization: string;
    createdAt: Date;
    returnedAt: Date | null;
    sourceId: string;
    ownerId: string | null;
    status: string;
    extraFields: Record<string, unknown>;
  };

/** The columns of a stored lead the add path selects (StoredLead's). */
export const STORED_LEAD_COLUMNS = [
  "id",
  "seq",
  "emailKey",
  "firstName",
  "organization",
  "createdAt",
  "returnedAt",
  "sourceId",
  "ownerId",
  "status",
  "lastName",
  "email",
  "phone",
  "phoneCountryCode",
  "phoneNational",
  "mobileNo",
  "mobileCountryCode",
  "mobileNational",
  "jobTitle",
  "website",
  "territory",
  "industry",
  "annualRevenue",
  "noOfEmployees",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "extraFields",
] as const satisfies readonly (keyof StoredLead)[];

/** The columns a submission that joins a lead writes (all of them: one statement; a field it does not fill keeps its value). */
export const JOINED_LEAD_COLUMNS = {
  lastName: "text",
  email: "text",
  emailKey: "text",
  nameKey: "text",
  lastNameKey: "text",
  phone: "text",
  phoneCountryCode: "text",
  phoneNational: "text",
  mobileNo: "text",
  mobileCountryCode: "text",
  mobileNational: "text",
  jobTitle: "text",
  website: "text",
  territory: "text",
  industry: "text",
  annualRevenue: "text",
  noOfEmployees: "text",
  utmSource: "text",
  utmMedium: "text",
  utmCampaign: "text",
  utmTerm: "text",
  utmContent: "text",
  extraFields: "json",
  channelGroup: "text",
  firstChannelGroup: "text",
  returnedAt: "timestamp",
} as const satisfies Record<string, ColumnType>;

/** A candidate row as a driver read it (STORED_LEAD_COLUMNS): times as readDriverTime takes them, extraFields as JSON text or parsed. */
export function storedLead(row: Record<string, unknown>): StoredLead {
  const extra = typeof row.extraFields === "string" ? (JSON.parse(row.extraFields) as unknown) : row.extraFields;
  return {
    ...(row as Omit<StoredLead, "seq" | "createdAt" | "returnedAt" | "extraFields">),
    seq: Number(row.seq),
    createdAt: readDriverTime(row.createdAt)!,
    returnedAt: readDriverTime(row.returnedAt),
    extraFields: extra && typeof extra === "object" && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {},
  };
}

/** How the stores look a submission's person up: its lower-cased email and its numbers; null when it has neither (it never matches). */
export function repeatLookup(write: LeadWrite): { email: string | null; numbers: string[] } | null {
  if (!write.repeat) return null;
  const lookup = contactLookup(write.lead);
  return lookup.email || lookup.numbers.length ? lookup : null;
}

/** Of the leads found by repeatLookup, the one the submission joins (the team's window applied); null: a new lead. */
export function repeatTarget(write: LeadWrite, found: readonly StoredLead[]): StoredLead | null {
  return write.repeat ? pickRepeatLead(write.lead, found, write.repeat.since) : null;
}

/** The fields a joining submission may fill (those of REQUEST_NAMES it writes). */
const FILLED_NAMES = REQUEST_NAMES.filter(([column]) => Object.hasOwn(JOINED_LEAD_COLUMNS, column));

/** A submission joining a stored lead: the lead's written columns (JOINED_LEAD_COLUMNS) and what it filled. */
export type JoinedLead = { values: Record<keyof typeof JOINED_LEAD_COLUMNS, unknown> & StoredLead; filled: string[] };

/**
 * The joined lead: its empty fields filled from the submission (fillEmpty, the import's rule),
 * their search keys, its return time; and the names of the fields the submission filled
 * (extra fields as extra_fields.<name>).
 */
export function joinLead(stored: StoredLead, write: LeadWrite): JoinedLead {
  const next = fillEmpty(stored, write.lead);
  if (!next) return { values: { ...stored, ...derivedColumns(stored), returnedAt: write.now }, filled: [] };
  const filled: string[] = FILLED_NAMES.filter(([column]) => next[column as keyof StoredLead] !== stored[column as keyof StoredLead]).map(
    ([, name]) => name,
  );
  for (const name of Object.keys(next.extraFields as Record<string, unknown>)) {
    if (!Object.hasOwn(stored.extraFields, name)) filled.push(`extra_fields.${name}`);
  }
  return { values: { ...next, ...derivedColumns(next), returnedAt: write.now }, filled };
}

/**
 * The joined lead as the assignment rules see it when it has no owner (it goes through them
 * again, docs/routing.md "At intake"): its fields after the fill and its source, with the
 * channel of this submission (the form, connection or key it came through now).
 */
export function joinedRoutedLead(joined: JoinedLead, write: LeadWrite): RoutedLead {
  const { formId, connectionId, apiKeyId } = write.lead;
  // The stored extra fields are what the writer stored: ExtraFieldValues.
  return { ...joined.values, extraFields: joined.values.extraFields as RoutedLead["extraFields"], formId, connectionId, apiKeyId };
}

/** Who hears of a submission added to a lead; the team's slug is read with them. */
export type JoinRecipients = { teamSlug: string; endpoints: string[]; subscribers: string[] };

/**
 * The chat destinations that post repeat submissions, with what their message names that the
 * lead's row does not: its source's name and its owner's (read by the writer only when there
 * are destinations).
 */
export type JoinChats = {
  chats: ChatRecipient[];
  sourceName: string;
  owner: { id: string; name: string } | null;
  /** When the lead was last submitted before this submission (the stored lead's returnedAt; null: only when it was created). */
  lastSubmittedAt: Date | null;
};

/**
 * The outbox rows of a submission added to a lead: a lead.submitted delivery per subscribed
 * endpoint, and, when emails are on, the "submitted again" email to the lead's owner, or to
 * the members who get new-lead emails when it has none; a chat message per destination that
 * posts repeats (chat-outbox.ts repeatChatJobs, its conditions applied).
 */
export function joinedJobs(
  write: LeadWrite,
  joined: JoinedLead,
  submission: ReturnType<typeof submissionRow>,
  recipients: JoinRecipients,
  chats?: JoinChats | null,
): NewJob[] {
  const lead = joined.values;
  const team = { id: write.lead.teamId, slug: recipients.teamSlug };
  const jobs = leadSubmittedJobs(recipients.endpoints, {
    team,
    lead: {
      id: lead.id,
      first_name: lead.firstName,
      last_name: lead.lastName,
      email: lead.email,
      phone: lead.phone,
      mobile_no: lead.mobileNo,
      organization: lead.organization,
      status: lead.status as LeadStatus,
    },
    submission: {
      id: submission.id,
      channel: submission.channel as "api" | "form" | "connection",
      api_key_id: submission.apiKeyId,
      form_id: submission.formId,
      connection_id: submission.connectionId,
      fields: submission.fields,
      skipped: submission.skipped,
    },
    filled: joined.filled,
    at: write.now,
  });
  if (write.events.emails) {
    const to = lead.ownerId ? [lead.ownerId] : recipients.subscribers;
    for (const userId of to) {
      jobs.push(
        submittedEmailJob({
          teamId: team.id,
          userId,
          leadId: lead.id,
          submissionId: submission.id,
          filled: joined.filled,
          unassigned: !lead.ownerId,
          at: write.now,
        }),
      );
    }
  }
  if (chats?.chats.length) {
    jobs.push(
      ...repeatChatJobs({
        chats: chats.chats,
        team,
        leadId: lead.id,
        submissionId: submission.id,
        lead: { ...lead, extraFields: lead.extraFields as NewLead["extraFields"], channelGroup: lead.channelGroup as string | null },
        lastSubmittedAt: chats.lastSubmittedAt,
        sourceName: chats.sourceName,
        origin: write.events.origin,
        owner: chats.owner,
        at: write.now,
      }),
    );
  }
  return jobs;
}
