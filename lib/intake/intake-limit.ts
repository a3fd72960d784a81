import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { ApiError } from "../http/api-error";
import { readFields } from "../http/read-body";
import { fromLoopbackSocket, type RequestContext } from "../http/request-context";
import { LIMITS } from "../leads/lead-input-schema";
import { writeLead, type LeadFields } from "../leads/lead-writer";
import { bodyEncoding } from "../request-log/request-log";
import { findTeamBySlug } from "../teams/team-store";
import { now } from "../time/clock";

// The limit of this design, for `npm run bench` (issue 29): what a create costs with none of
// the app's own work. The same build, the same body reader and the same lead transaction
// (lib/leads/lead-writer.ts: the lead, its request-log row, its outbox rows) on the same
// database, and nothing else: no authentication (the key id is taken as sent), no limits,
// no idempotency, no rules (the name and email are stored as sent), no log line, no metrics.
// Off (404) unless BENCH_INTAKE_LIMIT_TEAM names a team and BENCH_INTAKE_LIMIT_SECRET is set,
// and then only for requests whose socket is this machine's loopback address (scripts/serve.mjs
// puts the peer address in its own header; X-Forwarded-For, which a trusted proxy's client
// writes, is never read: issue 40, finding 3) that carry that secret in X-Bench-Secret.

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The bench's own request: from loopback, with the bench's secret (compared in constant time). */
function isBenchRequest(headers: Headers, secret: string | undefined): boolean {
  if (!secret || !fromLoopbackSocket(headers)) return false;
  return timingSafeEqual(digest(headers.get("x-bench-secret") ?? ""), digest(secret));
}

let team: Promise<{ id: string } | null> | undefined;

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

export async function intakeLimit(request: Request, context: RequestContext): Promise<Response> {
  const slug = env().BENCH_INTAKE_LIMIT_TEAM;
  if (!slug || !isBenchRequest(request.headers, env().BENCH_INTAKE_LIMIT_SECRET)) throw new ApiError(404, "Not found", "Not found");
  const target = await (team ??= findTeamBySlug(slug).catch((error: unknown) => {
    team = undefined;
    throw error;
  }));
  if (!target) throw new ApiError(404, `No team "${slug}"`, "Not found");
  const fields = new Map(await readFields(request, LIMITS.bodyBytes));
  const take = (name: string) => {
    const value = text(fields.get(name));
    fields.delete(name);
    return value;
  };
  const apiKeyId = request.headers.get("x-api-key");
  // The body's fields as sent, unchecked, in the columns create_lead would use: the same row size.
  const name = take("name") ?? "Limit";
  const source = take("source") ?? undefined;
  const lead: LeadFields = {
    teamId: target.id,
    apiKeyId,
    formId: null,
    connectionId: null,
    firstName: name,
    lastName: null,
    email: take("email"),
    phone: take("phone"),
    ...{ phoneCountryCode: null, phoneNational: null, mobileNo: null, mobileCountryCode: null, mobileNational: null },
    ...{ skippedPhone: null, skippedMobileNo: null, skippedWebsite: null },
    organization: take("organization") ?? name,
    jobTitle: take("job_title"),
    website: take("website"),
    ...{ territory: null, industry: null, annualRevenue: null, noOfEmployees: null },
    utmSource: take("utm_source"),
    utmMedium: take("utm_medium"),
    utmCampaign: take("utm_campaign"),
    utmTerm: take("utm_term"),
    utmContent: take("utm_content"),
    extraFields: Object.fromEntries([...fields].map(([field, value]) => [field, String(value)])),
  };
  const written = await writeLead({
    lead,
    source: { requested: source },
    requestLog: { apiKeyId, formId: null, ip: context.ip, encoding: bodyEncoding(request.headers.get("content-type")) },
    events: { origin: { apiKeyId }, emails: Boolean(env().SMTP_URL) },
    now: now(),
  });
  return new Response(JSON.stringify({ success: true, lead_id: written.leadId }), {
    status: 201,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
