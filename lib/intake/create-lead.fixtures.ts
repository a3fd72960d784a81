import { errorResponse } from "../http/envelope";
import { createLeadFromRequest } from "./create-lead-request";

// A create_lead post through its use case, as the route handler makes it, for tests on a real
// database. Not a test file itself: a test file calls useTestDatabase() first, then imports
// this with `await import(…)`, like its own lib modules.

let requests = 0;

/** Posts `fields` as JSON with the key's headers from `ip`; the answer as a client gets it, an error mapped as the route maps it. */
export async function sendCreateLead(
  key: { keyId: string; secret: string },
  fields: Record<string, unknown>,
  options: { ip?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret, ...options.headers },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `fixture-${++requests}`, ip: options.ip ?? "198.51.100.7" };
  return createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
}
