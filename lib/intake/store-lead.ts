import type { StoredResponse } from "../idempotency/idempotency-store";
import type { ClaimToComplete } from "../idempotency/idempotency";
import { createLead, type CreateLeadResult } from "../leads/create-lead";
import type { LeadWrite } from "../leads/lead-writer";
import type { LeadInput } from "../leads/parse-lead-input";
import type { LeadSource } from "../teams/lead-sources";
import type { Repeats } from "../leads/repeats";
import type { IntakeTeam } from "../teams/intake-team";
import { metrics } from "../operations/metrics";
import { quarantineOf } from "../spam/intake-spam";
import { now } from "../time/clock";
import type { AskedConsent } from "../consent/consent-evidence";
import { intakeConsent } from "../consent/intake-consent";
import { confirmKeptLead } from "../consent/double-opt-in";
import { heldUse, holdSubmission } from "../consent/held-submissions";
import type { HeldChannel, HeldRow } from "../consent/held-submission-store";
import type { ConsentDraft } from "../consent/consent-evidence";
import type { Tx } from "../db/client";
import { bodyEncoding, createdCommitted, type RequestLogDraft } from "../request-log/request-log";
import type { RequestTarget } from "../request-log/request-log-store";

// The one way a request becomes a lead, for create_lead (an API key), web forms and
// form-builder connections: the lead, its log row (the request log's; a connection's own
// log) and whatever the caller adds (a stored idempotent response, a spent proof-of-work
// challenge) commit in one transaction (lib/leads/lead-writer.ts).

/** Where a lead is sent: the team, and the key, the form or the connection that received it. */
export type IntakeChannel = {
  team: IntakeTeam;
  /** What the channel does with a submission of a person who has a lead (lib/leads/repeats.ts). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md): a flagged one goes to the quarantine. */
  spamChecks: boolean;
  apiKeyId: string | null;
  formId: string | null;
  /** A form builder's connection: its deliveries are logged in its own log, not the request log. */
  connectionId?: string | null;
  /** The web form's lead source; without one the request's `source` field decides (spec 2.1). */
  source?: LeadSource | null;
  /** The consent the web form or the connection asks for, its current version (docs/consent.md); null or absent: none. */
  consent?: AskedConsent | null;
};

/** The request-log rows of a channel. */
export function logTarget(channel: IntakeChannel): RequestTarget {
  return { teamId: channel.team.id, apiKeyId: channel.apiKeyId, formId: channel.formId };
}

/** What a request adds to the lead's transaction. */
export type StoreExtras = {
  /** An Idempotency-Key claim, completed with the response for the lead. */
  claim?: { claim: ClaimToComplete; response: (result: CreateLeadResult) => StoredResponse } | null;
  /** A verified proof-of-work solution, spent once; `replayed` is thrown when it was spent before. */
  spentChallenge?: { id: string; expiresAt: Date; replayed: () => Error } | null;
  /** Runs once the lead passed every rule, before its transaction; throws to refuse it. */
  admit?: () => Promise<void>;
  /** A connection's delivery, logged with the lead, once per submission. */
  delivery?: LeadWrite["delivery"];
  /**
   * A held submission the person confirmed (lib/intake/confirm-held.ts): its evidence as
   * received, no spam check (it passed them) and no email; its single use is spent with the
   * lead (a second confirmation rolls back with HeldSpent).
   */
  confirmed?: { row: Pick<HeldRow, "id" | "expiresAt">; consent: ConsentDraft };
  /** A connection's answer mapped to "consent", as its builder's rule reads it (lib/connections/consent-answer.ts). */
  consentAnswer?: "given" | "not_given";
  /** A connection's person as its builder gives them (lib/connections/consent-answer.ts builderPerson): the request is the builder's server. */
  consentPerson?: { ip: string | null; userAgent: string | null };
  /** A connection's delivery held until confirmed: its log row, written in the hold's transaction (it may throw: a builder's retry). */
  heldLog?: (tx: Tx, heldId: string) => Promise<void>;
};

/** What became of a submission: its lead, or held until the person confirms (docs/consent.md). */
export type StoredSubmission = { kind: "created"; result: CreateLeadResult } | { kind: "held"; heldId: string };

/** The repeat rule of a channel at `at`: set to "add" and the team's window open (days > 0), leads last submitted since then join. */
export function repeatOf(channel: IntakeChannel, at: Date): LeadWrite["repeat"] {
  const days = channel.team.repeatWindowDays;
  if (channel.repeats !== "add" || days <= 0) return null;
  return { since: new Date(at.getTime() - days * DAY_MS) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A request's lead (create_lead: a channel that never holds a submission). */
export async function storeLead(
  draft: RequestLogDraft,
  channel: IntakeChannel,
  input: LeadInput,
  extras: StoreExtras = {},
): Promise<CreateLeadResult> {
  const stored = await storeSubmission(draft, channel, input, extras);
  if (stored.kind === "held") throw new Error("Only a web form's or a connection's submission is held (storeSubmission)");
  return stored.result;
}

/** The channel a submission is held under: a connection, a web form; null for an API key's (never held). */
function heldChannelOf(channel: IntakeChannel): HeldChannel | null {
  if (channel.connectionId) return { kind: "connection", id: channel.connectionId };
  return channel.formId ? { kind: "form", id: channel.formId } : null;
}

/**
 * A request's lead, or, on a channel set to "Create the lead only once confirmed", the
 * submission held (lib/consent/held-submissions.ts): one that gave consent (its evidence
 * "pending": an address, not suppressed) and passed the spam checks. Other channels and forms
 * pay nothing for it: the hold is decided from the channel's settings before any query.
 */
export async function storeSubmission(
  draft: RequestLogDraft,
  channel: IntakeChannel,
  input: LeadInput,
  extras: StoreExtras = {},
): Promise<StoredSubmission> {
  const receivedAt = now();
  const confirmed = extras.confirmed;
  const consent = confirmed
    ? confirmed.consent
    : await intakeConsent({
        team: channel.team,
        channel: channel.connectionId ? "connection" : channel.formId ? "form" : "api",
        formId: channel.formId,
        asked: channel.consent ?? null,
        answer: extras.consentAnswer,
        person: extras.consentPerson,
        extraFields: input.extraFields,
        email: input.email ?? null,
        context: draft.context,
        receivedAt,
      });
  const quarantine = confirmed
    ? null
    : await quarantineOf({
        checks: channel.spamChecks,
        team: channel.team,
        input,
        ip: draft.context.ip,
        senderIsVisitor: channel.formId !== null,
        submissionKey: extras.delivery ? `${extras.delivery.connectionId}:${extras.delivery.submissionId}` : undefined,
        userAgent: draft.context.userAgent,
        referrer: draft.context.referrer,
      });
  const heldChannel = channel.consent?.hold ? heldChannelOf(channel) : null;
  if (heldChannel && consent?.status === "pending" && !quarantine && !confirmed && input.email) {
    await extras.admit?.();
    const delivery = extras.delivery;
    const held = await holdSubmission({
      teamId: channel.team.id,
      channel: heldChannel,
      email: input.email,
      submission: {
        input,
        consent,
        context: draft.context,
        contentType: draft.contentType,
        ...(delivery ? { delivery: { submissionId: delivery.submissionId, answers: delivery.answers } } : {}),
      },
      at: receivedAt,
      spentChallenge: extras.spentChallenge,
      log: extras.heldLog,
    });
    if (held.result === "held") return { kind: "held", heldId: held.id };
    // Confirmed before: the lead is created at once, as without holding (its budget is spent).
    extras = { ...extras, admit: undefined };
  }
  const result = await createLead({
    team: channel.team,
    apiKeyId: channel.apiKeyId,
    formId: channel.formId,
    connectionId: channel.connectionId ?? null,
    source: channel.source ?? null,
    input,
    requestLog: channel.connectionId
      ? null
      : { apiKeyId: channel.apiKeyId, formId: channel.formId, ip: draft.context.ip, encoding: bodyEncoding(draft.contentType) },
    claim: extras.claim ? { ...extras.claim.claim, response: extras.claim.response } : null,
    spentChallenge: confirmed ? heldUse(confirmed.row) : extras.spentChallenge,
    admit: extras.admit,
    delivery: extras.delivery,
    repeat: repeatOf(channel, receivedAt),
    quarantine,
    consent,
  });
  if (!channel.connectionId) createdCommitted(logTarget(channel));
  // Double opt-in: a kept submission whose consent is pending gets its confirmation email
  // (none for a quarantined one), within the person's limits (lib/consent/double-opt-in.ts).
  // The lead is kept either way: a failure here leaves it pending, for "Resend confirmation".
  if (consent?.status === "pending" && !quarantine && !confirmed)
    await confirmKeptLead({ teamId: channel.team.id, leadId: result.leadId, email: input.email ?? null, at: receivedAt });
  if (quarantine)
    for (const code of new Set(quarantine.reasons.map((reason) => reason.code))) metrics().leadsQuarantined.inc({ reason: code });
  else if (!result.added) metrics().leadsCreated.inc({ team: channel.team.slug });
  return { kind: "created", result };
}
