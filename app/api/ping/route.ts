export const dynamic = "force-dynamic";

/** Liveness probe and the benchmark's baseline: no database, constant JSON. */
export function GET(): Response {
  return Response.json({ ok: true });
}
