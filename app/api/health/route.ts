import { readiness } from "@/lib/operations/readiness";

export const dynamic = "force-dynamic";

/** Readiness probe: 200 when the database (and Redis, when configured) can serve; 503 naming what cannot. */
export async function GET(): Promise<Response> {
  const result = await readiness();
  return Response.json(
    { status: result.ok ? "ok" : "failing", checks: result.checks },
    { status: result.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
