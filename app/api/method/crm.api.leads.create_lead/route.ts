import { authenticate } from "@/lib/api-keys/authenticate";
import { createLead, successMessage } from "@/lib/leads/create-lead";
import { LIMITS } from "@/lib/leads/lead-input-schema";
import { parseLeadInput } from "@/lib/leads/parse-lead-input";
import { jsonResponse, methodNotAllowed, respond } from "@/lib/http/envelope";
import { readFields } from "@/lib/http/read-body";

export const dynamic = "force-dynamic";

// Spec 4.1. Authentication comes first: a caller without a valid key learns nothing
// about the body rules, and no body is read for it.
export function POST(request: Request): Promise<Response> {
  return respond(async () => {
    const key = await authenticate(request.headers);
    const input = parseLeadInput(await readFields(request, LIMITS.bodyBytes));
    const { leadId, skipped } = await createLead({ team: key.team, apiKeyId: key.keyId, input });
    return jsonResponse({ success: true, lead_id: leadId, message: successMessage(skipped) }, 201);
  });
}

export const GET = methodNotAllowed("POST");
export const PUT = methodNotAllowed("POST");
export const PATCH = methodNotAllowed("POST");
export const DELETE = methodNotAllowed("POST");
export const OPTIONS = methodNotAllowed("POST");
