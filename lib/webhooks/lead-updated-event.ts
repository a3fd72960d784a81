import { z } from "zod";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import type { LeadStatus } from "../leads/lead-status";
import { LEAD_UPDATED, leadOwnerSchema, leadStatusSchema, newEventId, teamSchema, type LeadOwner } from "./lead-created-event";

// The body of a lead.updated delivery (docs/webhooks.md "lead.updated"): a lead's status or
// owner changed. Only what changed is in `changes`, each as { from, to }. One schema builds
// the payload here and the OpenAPI document's `webhooks` section (lib/leads/openapi.ts).

export const leadUpdatedEventSchema = z.object({
  id: z.string().meta({ description: "The event id, also sent as the webhook-id header; the same for every retry.", example: "evt_3f0c…" }),
  type: z.literal(LEAD_UPDATED),
  timestamp: z.iso.datetime().meta({ description: "When the lead was changed (UTC)." }),
  data: z.object({
    team: teamSchema,
    lead_id: z.string().meta({ example: "CRM-LEAD-00001" }),
    changes: z
      .object({
        status: z.object({ from: leadStatusSchema, to: leadStatusSchema }).optional(),
        owner: z.object({ from: leadOwnerSchema, to: leadOwnerSchema }).optional(),
      })
      .meta({ description: "The fields that changed, each with its value before and after; a field that did not change is absent." }),
  }),
});
export type LeadUpdatedEvent = z.infer<typeof leadUpdatedEventSchema>;

/** What changed on one lead. */
export type LeadChanges = {
  status?: { from: LeadStatus; to: LeadStatus };
  owner?: { from: LeadOwner; to: LeadOwner };
};

/** The lead.updated payload of a change just made (inside its transaction). */
export function leadUpdatedEvent(options: {
  eventId: string;
  at: Date;
  team: { id: string; slug: string };
  leadId: string;
  changes: LeadChanges;
}): LeadUpdatedEvent {
  return leadUpdatedEventSchema.parse({
    id: options.eventId,
    type: LEAD_UPDATED,
    timestamp: options.at.toISOString(),
    data: {
      team: { id: options.team.id, slug: options.team.slug },
      lead_id: options.leadId,
      changes: options.changes,
    },
  });
}

/**
 * The outbox rows of one lead's change: a delivery per endpoint subscribed to lead.updated,
 * all with one event id. The caller writes them in the change's transaction (a committed
 * change always has its deliveries, a refused or rolled-back one never).
 */
export function leadUpdatedJobs(options: {
  endpoints: readonly string[];
  team: { id: string; slug: string };
  leadId: string;
  changes: LeadChanges;
  at: Date;
}): NewJob[] {
  if (!options.endpoints.length) return [];
  const eventId = newEventId();
  const { team, at } = options;
  const payload = JSON.stringify(leadUpdatedEvent({ eventId, at, team, leadId: options.leadId, changes: options.changes }));
  return options.endpoints.map((endpointId) => ({
    teamId: team.id,
    kind: "webhook",
    endpointId,
    leadId: options.leadId,
    eventId,
    eventType: LEAD_UPDATED,
    payload,
    maxAttempts: MAX_ATTEMPTS,
    runAt: at,
  }));
}
