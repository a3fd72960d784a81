import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { metrics } from "./metrics";
import { refreshSpeedToLeadGauges } from "./speed-to-lead-gauges";

// /api/metrics is for a Prometheus server, never for the public internet: without
// METRICS_TOKEN configured it does not exist (404); with it, the request must carry the
// token as a bearer token (401 otherwise).

const digest = (text: string) => createHash("sha256").update(text).digest();

export async function metricsResponse(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain" } });
  const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  // Digests have one length, so the comparison takes the same time whatever was sent.
  if (!timingSafeEqual(digest(presented), digest(token))) {
    return new Response("Unauthorized\n", {
      status: 401,
      headers: { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  const { registry } = metrics();
  await refreshSpeedToLeadGauges();
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
}
