import { metricsResponse } from "@/lib/operations/metrics-endpoint";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
