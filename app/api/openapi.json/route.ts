import { openApiDocument } from "@/lib/leads/openapi";

export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(openApiDocument());
}
