import { serveDirectly } from "@/lib/http/direct-routes";
import { respond } from "@/lib/http/envelope";
import { intakeLimit } from "@/lib/intake/intake-limit";

export const dynamic = "force-dynamic";

// `npm run bench`'s limit row (docs/performance.md "The limit of this design"): 404 unless
// BENCH_INTAKE_LIMIT_TEAM is set, and then only from this machine.
export function POST(request: Request): Promise<Response> {
  return respond(request, (context) => intakeLimit(request, context));
}

// Beside Next's router like create_lead, so that the two rows still differ by the app's own work alone.
serveDirectly("POST", "/api/bench/intake-limit", POST);
