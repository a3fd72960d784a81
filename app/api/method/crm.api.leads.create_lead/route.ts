import { createLeadFromRequest } from "@/lib/intake/create-lead-request";
import { serveDirectly } from "@/lib/http/direct-routes";
import { methodNotAllowed, respond } from "@/lib/http/envelope";
import { observeIntake } from "@/lib/operations/metrics";

export const dynamic = "force-dynamic";

// Spec 4.1; the use case and its order of checks are in lib/intake/create-lead-request.ts.
export function POST(request: Request): Promise<Response> {
  return observeIntake("create_lead", () => respond(request, (context) => createLeadFromRequest(request, context)));
}

// Every other method: 405 with Allow: POST.
const refused = methodNotAllowed("POST");
export { refused as GET, refused as PUT, refused as PATCH, refused as DELETE, refused as OPTIONS };

// From its first request on, served beside Next's router (lib/http/direct-routes.ts).
serveDirectly("POST", "/api/method/crm.api.leads.create_lead", POST);
