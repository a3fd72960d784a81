import { publicBaseUrl } from "@/lib/http/public-url";
import { openApiDocument } from "@/lib/leads/openapi";

// Per request: the document's `servers` names this deployment (NEXTAUTH_URL, else the host).
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return Response.json(openApiDocument(await publicBaseUrl()));
}
