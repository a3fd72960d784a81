import { authenticate, spendKeyBudget, type AuthenticatedKey } from "../api-keys/authenticate";
import { AuthenticationError } from "../http/api-error";
import { toApiError } from "../http/envelope";
import type { RequestContext } from "../http/request-context";
import { readFields } from "../http/read-body";
import { fingerprint, idempotencyKeyFrom, runIdempotently } from "../idempotency/idempotency";
import { leadResultBody, leadResultStatus, type CreateLeadResult } from "../leads/create-lead";
import { LIMITS } from "../leads/lead-input-schema";
import { parseLeadInput } from "../leads/parse-lead-input";
import { recordRefused, recordReplayed, type RequestLogDraft } from "../request-log/request-log";
import { logTarget, storeLead, type IntakeChannel } from "./store-lead";

// The create_lead use case over HTTP (spec 4.1): authenticate, read and validate the
// body, create the lead (at most once per Idempotency-Key), and write what happened to
// the key's request log: a created lead in its own transaction, a refusal in one insert.

/** 201 and the new lead, or 200 and the person's lead the key's "add" setting joined it to. */
const saved = (result: CreateLeadResult) => ({ status: leadResultStatus(result), body: JSON.stringify(leadResultBody(result)) });

export async function createLeadFromRequest(request: Request, context: RequestContext): Promise<Response> {
  const draft: RequestLogDraft = { context, contentType: request.headers.get("content-type") };
  let key: AuthenticatedKey;
  try {
    // Authentication (with the abuse limits) comes first: a caller without a valid key
    // learns nothing about the body rules, and no body is read for it.
    key = await authenticate(request.headers, context);
  } catch (error) {
    if (error instanceof AuthenticationError && error.key) {
      await recordRefused(draft, { teamId: error.key.teamId, apiKeyId: error.key.keyId }, error);
    }
    throw error;
  }
  const channel: IntakeChannel = {
    team: key.team,
    apiKeyId: key.keyId,
    formId: null,
    repeats: key.repeats,
    spamChecks: key.spamChecks,
  };

  try {
    await spendKeyBudget(context, key);
    const idempotencyKey = idempotencyKeyFrom(request.headers);
    const fields = await readFields(request, LIMITS.bodyBytes);
    const input = parseLeadInput(fields);
    const outcome = await runIdempotently(
      idempotencyKey === null ? null : { apiKeyId: key.keyId, key: idempotencyKey, fingerprint: fingerprint("create_lead", fields) },
      context,
      async (claim) => saved(await storeLead(draft, channel, input, { claim: claim && { claim, response: saved } })),
    );
    if (outcome.replayed) await recordReplayed(draft, logTarget(channel), outcome);
    return new Response(outcome.body, {
      status: outcome.status,
      headers: {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
        ...(outcome.replayed ? { "Idempotent-Replayed": "true" } : {}),
      },
    });
  } catch (thrown) {
    const error = toApiError(thrown, context);
    await recordRefused(draft, logTarget(channel), error);
    throw error;
  }
}
