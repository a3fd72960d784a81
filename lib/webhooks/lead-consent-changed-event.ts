import { z } from "zod";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { LEAD_CONSENT_CHANGED, newEventId, teamSchema } from "./lead-created-event";

// The body of a lead.consent_changed delivery (docs/webhooks.md "lead.consent_changed"): the
// person answered a double opt-in email (confirmed, or withdrew by its unsubscribe link). One
// schema builds the payload here and the OpenAPI document's `webhooks` section.

export const leadConsentChangedEventSchema = z.object({
  id: z.string().meta({ description: "The event id, also sent as the webhook-id header; the same for every retry.", example: "evt_3f0c…" }),
  type: z.literal(LEAD_CONSENT_CHANGED),
  timestamp: z.iso.datetime().meta({ description: "When consent changed (UTC)." }),
  data: z.object({
    team: teamSchema,
    lead_id: z.string().meta({ example: "CRM-LEAD-00001" }),
    consent: z.object({
      status: z.enum(["confirmed", "withdrawn"]),
      version: z.string().nullable().meta({ description: "The web form's consent version (cv_…) the person confirmed or withdrew." }),
      at: z.string().meta({ description: "When the person confirmed or withdrew (ISO 8601, UTC)." }),
    }),
  }),
});
export type LeadConsentChangedEvent = z.infer<typeof leadConsentChangedEventSchema>;

/** The outbox rows of one lead's consent change: a delivery per subscribed endpoint, all with one event id. */
export function leadConsentChangedJobs(options: {
  endpoints: readonly string[];
  team: { id: string; slug: string };
  leadId: string;
  consent: { status: "confirmed" | "withdrawn"; versionId: string | null };
  at: Date;
}): NewJob[] {
  if (!options.endpoints.length) return [];
  const eventId = newEventId();
  const { team, at } = options;
  const payload = JSON.stringify(
    leadConsentChangedEventSchema.parse({
      id: eventId,
      type: LEAD_CONSENT_CHANGED,
      timestamp: at.toISOString(),
      data: {
        team: { id: team.id, slug: team.slug },
        lead_id: options.leadId,
        consent: { status: options.consent.status, version: options.consent.versionId, at: at.toISOString() },
      },
    }),
  );
  return options.endpoints.map((endpointId) => ({
    teamId: team.id,
    kind: "webhook" as const,
    endpointId,
    leadId: options.leadId,
    eventId,
    eventType: LEAD_CONSENT_CHANGED,
    payload,
    maxAttempts: MAX_ATTEMPTS,
    runAt: at,
  }));
}
