import { z } from "zod";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { LEAD_SUBMITTED, leadStatusSchema, newEventId, teamSchema } from "./lead-created-event";

// The body of a lead.submitted delivery (docs/webhooks.md "lead.submitted"): a person who has
// a lead submitted again through a channel set to "Add to their lead" (docs/leads.md "Repeat
// submissions"), and the submission joined that lead. One schema builds the payload here and
// the OpenAPI document's `webhooks` section (lib/leads/openapi.ts).

const nullableText = z.string().nullable();

export const leadSubmittedEventSchema = z.object({
  id: z.string().meta({ description: "The event id, also sent as the webhook-id header; the same for every retry.", example: "evt_3f0c…" }),
  type: z.literal(LEAD_SUBMITTED),
  timestamp: z.iso.datetime().meta({ description: "When the submission arrived (UTC)." }),
  data: z.object({
    team: teamSchema,
    lead: z
      .object({
        id: z.string().meta({ example: "CRM-LEAD-00042" }),
        first_name: z.string(),
        last_name: nullableText,
        email: nullableText,
        phone: nullableText.meta({ description: "E.164" }),
        mobile_no: nullableText.meta({ description: "E.164" }),
        organization: z.string(),
        status: leadStatusSchema,
      })
      .meta({ description: "The lead the submission joined, as it is after the submission filled its empty fields." }),
    submission: z.object({
      id: z.string().meta({ example: "sub_5d1c…" }),
      channel: z.enum(["api", "form", "connection"]),
      api_key_id: nullableText,
      form_id: nullableText,
      connection_id: nullableText,
      fields: z.record(z.string(), z.unknown()).meta({
        description: "What was sent, by the create_lead request's names, extra fields under extra_fields; only what has a value.",
      }),
      skipped: z.array(z.string()).meta({ description: "Fields skipped as invalid (phone, mobile_no, website)." }),
    }),
    filled: z.array(z.string()).meta({
      description:
        "The lead's fields this submission filled (they were empty), by the request's names; extra fields as extra_fields.<name>.",
    }),
  }),
});
export type LeadSubmittedEvent = z.infer<typeof leadSubmittedEventSchema>;

export type SubmittedEventInput = {
  team: { id: string; slug: string };
  lead: LeadSubmittedEvent["data"]["lead"];
  submission: LeadSubmittedEvent["data"]["submission"];
  filled: string[];
  at: Date;
};

/**
 * The outbox rows of a submission added to a lead: a delivery per endpoint subscribed to
 * lead.submitted, all with one event id, written in the submission's transaction.
 */
export function leadSubmittedJobs(endpoints: readonly string[], input: SubmittedEventInput): NewJob[] {
  if (!endpoints.length) return [];
  const eventId = newEventId();
  const payload = JSON.stringify(
    leadSubmittedEventSchema.parse({
      id: eventId,
      type: LEAD_SUBMITTED,
      timestamp: input.at.toISOString(),
      data: { team: input.team, lead: input.lead, submission: input.submission, filled: input.filled },
    }),
  );
  return endpoints.map((endpointId) => ({
    teamId: input.team.id,
    kind: "webhook",
    endpointId,
    leadId: input.lead.id,
    eventId,
    eventType: LEAD_SUBMITTED,
    payload,
    maxAttempts: MAX_ATTEMPTS,
    runAt: input.at,
  }));
}
