import net from "node:net";
import type { AuditActor } from "../audit/audit-log";
import { env } from "../env";
import { insertJobs, requeueJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { wakeDeliveries } from "../jobs/wake";
import { newEventId, testEvent, TEST_EVENT, WEBHOOK_EVENTS } from "./lead-created-event";
import { isPrivateAddress } from "./target-address";
import { createEndpoint, recordWebhookAudit, updateEndpoint } from "./webhook-endpoint-changes";
import { findEndpoint } from "./webhook-endpoint-store";
import { db } from "../db/client";

// What managers do with a team's webhook endpoints (Team Settings → API Integration →
// Webhooks): the rules, called by the server actions. Each change is audited (the audited
// writes are webhook-endpoint-changes.ts).

export const MAX_ENDPOINTS_PER_TEAM = 20;

/** The URL to store, or the reason it is refused. https only, unless private targets are allowed (tests, intranets). */
export function checkEndpointUrl(text: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE_TARGETS): { url: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { error: "Enter a full URL, e.g. https://example.com/hooks/leads." };
  }
  if (text.trim().length > 2000) return { error: "The URL can be at most 2000 characters." };
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { error: "The URL must start with https://." };
  if (url.username || url.password) return { error: "Put no user name or password in the URL; verify the signature instead." };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && (host === "localhost" || (net.isIP(host) && isPrivateAddress(host)))) {
    return { error: "The URL points to a private or local address, which webhooks may not reach." };
  }
  url.hash = "";
  return { url: url.toString() };
}

/** An endpoint's URL, description and events, as a person enters them. */
export type EndpointFields = { url: string; description?: string | null; events: string[] };
type Checked<T> = ({ ok: true } & T) | { ok: false; error: string };

/** An endpoint's URL, description and events as stored, or the reason they are refused. */
function checkEndpointFields(fields: EndpointFields): Checked<{ stored: { url: string; description: string | null; events: string[] } }> {
  const checked = checkEndpointUrl(fields.url);
  if ("error" in checked) return { ok: false, error: checked.error };
  const events = [...new Set(fields.events)].filter((event): event is (typeof WEBHOOK_EVENTS)[number] =>
    (WEBHOOK_EVENTS as readonly string[]).includes(event),
  );
  if (!events.length) return { ok: false, error: "Choose at least one event." };
  return { ok: true, stored: { url: checked.url, description: fields.description?.trim() || null, events } };
}

export async function addEndpoint(options: EndpointFields & { teamId: string; actor: AuditActor }): Promise<Checked<{ id: string }>> {
  const fields = checkEndpointFields(options);
  if (!fields.ok) return fields;
  const count = await db().webhookEndpoint.count({ where: { teamId: options.teamId } });
  if (count >= MAX_ENDPOINTS_PER_TEAM) return { ok: false, error: `A team can have at most ${MAX_ENDPOINTS_PER_TEAM} endpoints.` };
  const created = await createEndpoint({ ...fields.stored, teamId: options.teamId, actor: options.actor });
  return { ok: true, id: created.id };
}

/** Changes an endpoint's URL, description and events, checked like a new endpoint's. */
export async function editEndpoint(options: EndpointFields & { id: string; teamId: string; actor: AuditActor }): Promise<Checked<object>> {
  const fields = checkEndpointFields(options);
  if (!fields.ok) return fields;
  const updated = await updateEndpoint({ ...fields.stored, id: options.id, teamId: options.teamId, actor: options.actor });
  return updated ? { ok: true } : { ok: false, error: "That endpoint does not exist (it may have been deleted)." };
}

/** Queues a webhook.test event for the endpoint; it shows in the delivery log like any other. */
export async function sendTestEvent(options: {
  endpointId: string;
  team: { id: string; slug: string };
  actor: AuditActor;
}): Promise<boolean> {
  const endpoint = await findEndpoint({ id: options.endpointId, teamId: options.team.id });
  if (!endpoint || !endpoint.enabled) return false;
  const eventId = newEventId();
  const at = new Date();
  await db().$transaction(async (tx) => {
    await insertJobs(
      [
        {
          teamId: options.team.id,
          kind: "webhook",
          endpointId: endpoint.id,
          eventId,
          eventType: TEST_EVENT,
          payload: JSON.stringify(testEvent({ eventId, at, team: options.team })),
          // A test is for now: one attempt, no retries.
          maxAttempts: 1,
          runAt: at,
        },
      ],
      tx,
    );
    await recordWebhookAudit(tx, options.team.id, "webhook.test_sent", options.actor, endpoint.id, { event_id: eventId });
  });
  wakeDeliveries();
  return true;
}

/** Sends a delivery that failed (or was cancelled) again, with the same event id and body. */
export async function resendDelivery(options: { jobId: string; endpointId: string; teamId: string; actor: AuditActor }): Promise<boolean> {
  const job = await db().job.findFirst({
    where: { id: options.jobId, teamId: options.teamId, endpointId: options.endpointId, endpoint: { enabled: true } },
    select: { id: true, eventType: true },
  });
  if (!job) return false;
  const requeued = await requeueJob({
    id: job.id,
    teamId: options.teamId,
    maxAttempts: job.eventType === TEST_EVENT ? 1 : MAX_ATTEMPTS,
    now: new Date(),
  });
  if (!requeued) return false;
  await recordWebhookAudit(db(), options.teamId, "webhook.resent", options.actor, options.endpointId, { job_id: job.id });
  wakeDeliveries();
  return true;
}
