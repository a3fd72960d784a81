import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { trackIntake } from "./intake-activity";

// Prometheus metrics of this process (GET /api/metrics, behind METRICS_TOKEN). Label
// values are bounded sets: a route name, a status class, a refusal reason, a team slug;
// never key ids, emails or anything a caller chooses.

export type RefusalReason = "auth" | "validation" | "body" | "limits" | "conflict" | "unavailable" | "error";

type Metrics = {
  registry: Registry;
  leadsCreated: Counter<"team">;
  leadsQuarantined: Counter<"reason">;
  akismetChecks: Counter<"result">;
  refused: Counter<"route" | "reason">;
  duration: Histogram<"route" | "status_class">;
  databaseErrors: Counter<"kind">;
  deliveries: Counter<"kind" | "outcome">;
  deliveryDuration: Histogram<"kind">;
  // Speed to lead (lib/operations/speed-to-lead-gauges.ts sets them at each scrape).
  timeToFirstContact: Gauge<"team" | "window" | "quantile">;
  contactedLeads: Gauge<"team" | "window">;
  newLeads: Gauge<"team">;
};

// Route handlers are bundled apart; one registry per process, kept on globalThis.
const holder = globalThis as unknown as { leadIntakeMetrics?: Metrics };

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "lead_intake_process_" });
  return {
    registry,
    leadsCreated: new Counter({
      name: "lead_intake_leads_created_total",
      help: "Leads created, by team slug.",
      labelNames: ["team"],
      registers: [registry],
    }),
    leadsQuarantined: new Counter({
      name: "lead_intake_leads_quarantined_total",
      help: "Submissions set aside in the spam quarantine (docs/spam.md), counted once under each of their reasons' codes.",
      labelNames: ["reason"],
      registers: [registry],
    }),
    akismetChecks: new Counter({
      name: "lead_intake_akismet_checks_total",
      help: "Akismet comment-checks (docs/spam.md), by result: spam, ham, error (an answer that is neither, a refused key, a failed connection) or timeout.",
      labelNames: ["result"],
      registers: [registry],
    }),
    refused: new Counter({
      name: "lead_intake_requests_refused_total",
      help: "Intake requests answered with an error, by route and reason (auth, validation, body, limits, conflict, unavailable, error).",
      labelNames: ["route", "reason"],
      registers: [registry],
    }),
    duration: new Histogram({
      name: "lead_intake_request_duration_seconds",
      help: "Time to answer an intake request, by route and status class (2xx, 4xx, 5xx).",
      labelNames: ["route", "status_class"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    databaseErrors: new Counter({
      name: "lead_intake_database_errors_total",
      help: "Database failures seen while answering requests: unavailable (answered 503) or unexpected (answered 500).",
      labelNames: ["kind"],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: "lead_intake_deliveries_total",
      help: "Delivery attempts of webhooks and new-lead emails, by kind (webhook, email) and outcome (delivered, retry, failed, cancelled).",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: "lead_intake_delivery_duration_seconds",
      help: "Time of one delivery attempt, by kind (webhook, email).",
      labelNames: ["kind"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    timeToFirstContact: new Gauge({
      name: "lead_intake_time_to_first_contact_seconds",
      help: "Time from a lead's creation to its first contact, nearest-rank quantile (0.5, 0.9) over the leads created in the window (7d, 30d) and contacted, by team slug; absent while none was.",
      labelNames: ["team", "window", "quantile"],
      registers: [registry],
    }),
    contactedLeads: new Gauge({
      name: "lead_intake_contacted_leads",
      help: "Leads created in the window (7d, 30d) and contacted since, the quantiles' count, by team slug.",
      labelNames: ["team", "window"],
      registers: [registry],
    }),
    newLeads: new Gauge({
      name: "lead_intake_new_leads",
      help: "Leads whose status is New right now, by team slug, counted up to 10000.",
      labelNames: ["team"],
      registers: [registry],
    }),
  };
}

export function metrics(): Metrics {
  holder.leadIntakeMetrics ??= create();
  return holder.leadIntakeMetrics;
}

/** The refusal reason a status stands for. */
export function refusalReason(status: number): RefusalReason {
  if (status === 401 || status === 403) return "auth";
  if (status === 422) return "validation";
  if (status === 429) return "limits";
  if (status === 409) return "conflict";
  if (status === 503) return "unavailable";
  if (status >= 500) return "error";
  return "body";
}

/** Times an intake route and counts its refusals. */
export async function observeIntake(route: string, answer: () => Promise<Response>): Promise<Response> {
  const stop = metrics().duration.startTimer({ route });
  const response = await trackIntake(answer);
  stop({ status_class: `${Math.floor(response.status / 100)}xx` });
  if (response.status >= 400) metrics().refused.inc({ route, reason: refusalReason(response.status) });
  return response;
}
