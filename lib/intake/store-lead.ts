import type { Tx } from "../db/client";
import { createLead, type CreateLeadResult } from "../leads/create-lead";
import type { LeadInput } from "../leads/parse-lead-input";
import type { LeadSource } from "../teams/lead-sources";
import { metrics } from "../operations/metrics";
import { createdCommitted, recordCreated, type RequestLogDraft } from "../request-log/request-log";
import type { RequestTarget } from "../request-log/request-log-store";

// The one way a request becomes a lead, for create_lead (an API key) and for web forms:
// the lead, its request-log row and whatever the caller adds (a stored idempotent
// response, a spent proof-of-work challenge) commit in one transaction.

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

export async function storeLead(
  draft: RequestLogDraft,
  channel: IntakeChannel,
  input: LeadInput,
  beforeCommit?: (tx: Tx, result: CreateLeadResult) => Promise<void>,
): Promise<CreateLeadResult> {
  const result = await createLead({
    team: channel.team,
    apiKeyId: channel.apiKeyId,
    formId: channel.formId,
    source: channel.source ?? null,
    input,
    beforeCommit: async (tx, created) => {
      await beforeCommit?.(tx, created);
      await recordCreated(draft, logTarget(channel), created.leadId, tx);
    },
  });
  createdCommitted(logTarget(channel));
  metrics().leadsCreated.inc({ team: channel.team.slug });
  return result;
}
