import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import type { NewLead } from "../leads/new-lead";
import { LEAD_CREATED, leadCreatedEvent, newEventId, type LeadOrigin, type LeadOwner } from "../webhooks/lead-created-event";
import { newLeadEmailPayload } from "./new-lead-email";

// What a new lead must set off: one outbox row per subscribed endpoint and per member who
// asked for an email. The intake writes them inside the lead's own transaction
// (lib/leads/lead-writer.ts): a committed lead always gets its webhook deliveries and
// emails, a rolled-back one never does. The dispatcher sends them later; nothing here
// waits on a network.

/** The jobs of a lead just inserted, for the team's subscribed endpoints and email subscribers. */
export function leadCreatedJobs(options: {
  endpoints: readonly string[];
  subscribers: readonly string[];
  team: { id: string; slug: string };
  leadId: string;
  lead: NewLead;
  sourceName: string;
  /** The owner routing gave the lead at intake; null: unassigned. */
  owner: LeadOwner;
  origin: LeadOrigin;
  /** The consent evidence written with the lead (docs/consent.md), or null. */
  consent?: Parameters<typeof leadCreatedEvent>[0]["consent"];
  at: Date;
}): NewJob[] {
  const { team, at } = options;
  const eventId = newEventId();
  const base = { teamId: team.id, leadId: options.leadId, eventId, eventType: LEAD_CREATED, maxAttempts: MAX_ATTEMPTS, runAt: at };
  const jobs: NewJob[] = [];
  if (options.endpoints.length) {
    const payload = JSON.stringify(
      leadCreatedEvent({
        eventId,
        at,
        team,
        leadId: options.leadId,
        lead: options.lead,
        sourceName: options.sourceName,
        owner: options.owner,
        origin: options.origin,
        consent: options.consent,
      }),
    );
    for (const endpointId of options.endpoints) jobs.push({ ...base, kind: "webhook", endpointId, payload });
  }
  for (const userId of options.subscribers) {
    jobs.push({
      ...base,
      kind: "email",
      payload: JSON.stringify(
        newLeadEmailPayload({ userId, team, leadId: options.leadId, lead: options.lead, sourceName: options.sourceName }),
      ),
    });
  }
  return jobs;
}
