import { authenticate } from "@/lib/api-keys/authenticate";
import { fingerprint, idempotencyKeyFrom, runIdempotently } from "@/lib/idempotency/idempotency";
import { createLead, leadCreatedBody, type CreateLeadResult } from "@/lib/leads/create-lead";
import { LIMITS } from "@/lib/leads/lead-input-schema";
import { parseLeadInput } from "@/lib/leads/parse-lead-input";
import { methodNotAllowed, respond } from "@/lib/http/envelope";
import { readFields } from "@/lib/http/read-body";

export const dynamic = "force-dynamic";

const created = (result: CreateLeadResult) => ({ status: 201, body: JSON.stringify(leadCreatedBody(result)) });

// Spec 4.1. Authentication (with the abuse limits) comes first: a caller without a
// valid key learns nothing about the body rules, and no body is read for it.
export function POST(request: Request): Promise<Response> {
  return respond(request, async (context) => {
    const key = await authenticate(request.headers, context);
    const idempotencyKey = idempotencyKeyFrom(request.headers);
    const fields = await readFields(request, LIMITS.bodyBytes);
    const input = parseLeadInput(fields);
    const outcome = await runIdempotently(
      idempotencyKey === null
        ? null
        : { apiKeyId: key.keyId, key: idempotencyKey, fingerprint: fingerprint("create_lead", fields) },
      context,
      async (complete) =>
        created(
          await createLead({
            team: key.team,
            apiKeyId: key.keyId,
            input,
            beforeCommit: complete ? (tx, result) => complete(tx, created(result)) : undefined,
          }),
        ),
    );
    return new Response(outcome.body, {
      status: outcome.status,
      headers: {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
        ...(outcome.replayed ? { "Idempotent-Replayed": "true" } : {}),
      },
    });
  });
}

export const GET = methodNotAllowed("POST");
export const PUT = methodNotAllowed("POST");
export const PATCH = methodNotAllowed("POST");
export const DELETE = methodNotAllowed("POST");
export const OPTIONS = methodNotAllowed("POST");
