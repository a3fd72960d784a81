import { z } from "zod";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { LEAD_SUBMITTED, leadStatusSchema, newEventId, teamSchema } from "./lead-created-event";

// The body of a lead.submitted delivery (docs/webhooks.md "lead.submitted"): a person who has
// a lead submitted again through a channel set to "Add to their lead" (docs/leads.md "Repeat
// submissions"), and the submission joined that lead. One schema types the payload here
// (leadSubmittedEvent builds it as the schema's type) and makes the OpenAPI document's
// `webhooks` section (lib/leads/openapi.ts).

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
 * The lead.submitted payload, built as the schema's type field by field in its order rather
 * than parsed through it on every repeat submission with an endpoint (as lead.created's is:
 * lead-created-event.ts). That the two agree, the same JSON byte for byte, is a test
 * (lead-submitted-event.test.ts, on generated submissions), not a check on the hot path.
 */
export function leadSubmittedEvent(eventId: string, input: SubmittedEventInput): LeadSubmittedEvent {
  const { lead, submission } = input;
  return {
    id: eventId,
    type: LEAD_SUBMITTED,
    timestamp: input.at.toISOString(),
    data: {
      team: { id: input.team.id, slug: input.team.slug },
      lead: {
        id: lead.id,
        first_name: lead.first_name,
        last_name: lead.last_name,
        email: lead.email,
        phone: lead.phone,
        mobile_no: lead.mobile_no,
        organization: lead.organization,
        status: lead.status,
      },
      submission: {
        id: submission.id,
        channel: submission.channel,
        api_key_id: submission.api_key_id,
        form_id: submission.form_id,
        connection_id: submission.connection_id,
        fields: submission.fields,
        skipped: submission.skipped,
      },
      filled: input.filled,
    },
  };
}

/**
 * The outbox rows of a submission added to a lead: a delivery per endpoint subscribed to
 * lead.submitted, all with one event id, written in the submission's transaction.
 */
export function leadSubmittedJobs(endpoints: readonly string[], input: SubmittedEventInput): NewJob[] {
  if (!endpoints.length) return [];
  const eventId = newEventId();
  const payload = JSON.stringify(leadSubmittedEvent(eventId, input));
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
