import type { StoredResponse } from "../idempotency/idempotency-store";
import type { ClaimToComplete } from "../idempotency/idempotency";
import { createLead, type CreateLeadResult } from "../leads/create-lead";
import type { LeadInput } from "../leads/parse-lead-input";
import type { LeadSource } from "../teams/lead-sources";
import { metrics } from "../operations/metrics";
import { bodyEncoding, createdCommitted, type RequestLogDraft } from "../request-log/request-log";
import type { RequestTarget } from "../request-log/request-log-store";

// The one way a request becomes a lead, for create_lead (an API key) and for web forms:
// the lead, its request-log row and whatever the caller adds (a stored idempotent
// response, a spent proof-of-work challenge) commit in one transaction
// (lib/leads/lead-writer.ts).

/** Where a lead is sent: the team, and the key or the form that received it. */
export type IntakeChannel = {
  team: { id: string; slug: string; defaultPhoneCountry: string | null };
  apiKeyId: string | null;
  formId: string | null;
  /** The web form's lead source; without one the request's `source` field decides (spec 2.1). */
  source?: LeadSource | null;
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
};

export async function storeLead(
  draft: RequestLogDraft,
  channel: IntakeChannel,
  input: LeadInput,
  extras: StoreExtras = {},
): Promise<CreateLeadResult> {
  const result = await createLead({
    team: channel.team,
    apiKeyId: channel.apiKeyId,
    formId: channel.formId,
    source: channel.source ?? null,
    input,
    requestLog: { apiKeyId: channel.apiKeyId, formId: channel.formId, ip: draft.context.ip, encoding: bodyEncoding(draft.contentType) },
    claim: extras.claim ? { ...extras.claim.claim, response: extras.claim.response } : null,
    spentChallenge: extras.spentChallenge,
    admit: extras.admit,
  });
  createdCommitted(logTarget(channel));
  metrics().leadsCreated.inc({ team: channel.team.slug });
  return result;
}
