import { serveDirectly } from "@/lib/http/direct-routes";
import { methodNotAllowed, respond } from "@/lib/http/envelope";
import { deliveryResponse, receiveDelivery } from "@/lib/intake/receive-delivery";
import { observeIntake } from "@/lib/operations/metrics";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

// A form builder's delivery (docs/connections.md); the rules are in lib/intake/receive-delivery.ts.
export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { token } = await params;
  return observeIntake("connection", () =>
    respond(request, async (context) => deliveryResponse(await receiveDelivery({ request, context, token }))),
  );
}

// Every other method: 405 with Allow: POST.
const refused = methodNotAllowed("POST");
export { refused as GET, refused as PUT, refused as PATCH, refused as DELETE, refused as OPTIONS };

// From its first request on, served beside Next's router (lib/http/direct-routes.ts).
serveDirectly("POST", "/api/connections/[token]", POST);
