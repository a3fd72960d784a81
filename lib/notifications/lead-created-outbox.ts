import type { Tx } from "../db/client";
import { env } from "../env";
import { insertJobs, type NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import type { NewLead } from "../leads/lead-store";
import { LEAD_CREATED, leadCreatedEvent, newEventId, type LeadOrigin } from "../webhooks/lead-created-event";
import { subscribedEndpoints } from "../webhooks/webhook-endpoint-store";
import { newLeadEmailPayload } from "./new-lead-email";

// What a new lead must set off, written into the outbox inside the lead's own transaction:
// a committed lead always gets its webhook deliveries and emails, a rolled-back one never
// does. The dispatcher sends them later; nothing here waits on a network.

/** The members of a team who asked for an email per new lead. */
async function emailSubscribers(teamId: string, tx: Tx): Promise<{ userId: string }[]> {
  return tx.membership.findMany({ where: { teamId, notifyNewLeads: true }, select: { userId: true } });
}

/** Writes the jobs for a lead just inserted; returns how many (0: nothing to nudge). */
export async function enqueueLeadCreated(
  tx: Tx,
  options: { teamId: string; leadId: string; lead: NewLead; sourceName: string; origin: LeadOrigin; now?: Date },
): Promise<number> {
  const [endpoints, subscribers] = await Promise.all([
    subscribedEndpoints(options.teamId, LEAD_CREATED, tx),
    env().SMTP_URL ? emailSubscribers(options.teamId, tx) : Promise.resolve([]),
  ]);
  if (!endpoints.length && !subscribers.length) return 0;
  const team = await tx.team.findUniqueOrThrow({ where: { id: options.teamId }, select: { id: true, slug: true } });
  const at = options.now ?? new Date();
  const eventId = newEventId();
  const base = { teamId: team.id, eventId, eventType: LEAD_CREATED, maxAttempts: MAX_ATTEMPTS, runAt: at };
  const jobs: NewJob[] = [];
  if (endpoints.length) {
    const payload = JSON.stringify(
      leadCreatedEvent({ eventId, at, team, leadId: options.leadId, lead: options.lead, sourceName: options.sourceName, origin: options.origin }),
    );
    for (const endpoint of endpoints) jobs.push({ ...base, kind: "webhook", endpointId: endpoint.id, payload });
  }
  for (const subscriber of subscribers) {
    jobs.push({
      ...base,
      kind: "email",
      payload: JSON.stringify(
        newLeadEmailPayload({ userId: subscriber.userId, team, leadId: options.leadId, lead: options.lead, sourceName: options.sourceName }),
      ),
    });
  }
  await insertJobs(jobs, tx);
  return jobs.length;
}
