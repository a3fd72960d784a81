import { randomUUID } from "node:crypto";
import { z } from "zod";
import { CHANNEL_GROUPS } from "../attribution/channel-groups";
import { CLICK_IDS } from "../attribution/attribution-fields";
import { leadAttribution, type Touch } from "../attribution/lead-attribution";
import { CONSENT_STATUSES, type ConsentStatus } from "../consent/consent-evidence";
import { LEAD_STATUSES, NEW_LEAD_STATUS, type LeadStatus } from "../leads/lead-status";
import type { NewLead } from "../leads/new-lead";

// The body of every webhook delivery: one zod schema, which builds the payload here and the
// OpenAPI document's `webhooks` section (lib/leads/openapi.ts), so the two cannot drift.
// Field names follow the create_lead request (snake_case).

export const LEAD_CREATED = "lead.created";
/** A lead's status or owner changed (lead-updated-event.ts). */
export const LEAD_UPDATED = "lead.updated";
/** A person's repeat submission joined their lead (lead-submitted-event.ts). */
export const LEAD_SUBMITTED = "lead.submitted";
/** A person confirmed (or withdrew) consent by a double opt-in email's link (lead-consent-changed-event.ts). */
export const LEAD_CONSENT_CHANGED = "lead.consent_changed";
export const TEST_EVENT = "webhook.test";
/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = [LEAD_CREATED, LEAD_UPDATED, LEAD_SUBMITTED, LEAD_CONSENT_CHANGED] as const;

const nullableText = z.string().nullable();
const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const teamSchema = z.object({
  id: z.string(),
  slug: z.string().meta({ example: "demo" }),
});

export const leadStatusSchema = z.enum(LEAD_STATUSES).meta({ description: "new, contacted, nurture, qualified, unqualified or junk" });

/** A lead's owner as events name it: a member of the team, or null (unassigned). */
export const leadOwnerSchema = z
  .object({ id: z.string(), email: z.string(), name: nullableText })
  .nullable()
  .meta({ description: "The member the lead is assigned to, or null (unassigned)." });
export type LeadOwner = z.infer<typeof leadOwnerSchema>;

const touchSchema = z.object({
  channel_group: z.enum(CHANNEL_GROUPS),
  source: nullableText.meta({ description: "utm_source, else the ad platform of a click id, else the outside referrer's host." }),
  medium: nullableText,
  campaign: nullableText,
  term: nullableText,
  content: nullableText,
  landing_page: nullableText.meta({ description: "As sent: not always an http(s) URL." }),
  referrer: nullableText.meta({ description: "As sent: not always an http(s) URL." }),
  click_ids: z.partialRecord(z.enum(CLICK_IDS), z.string()),
  at: nullableText.meta({ description: "The visit's time as sent (first_seen_at, last_seen_at)." }),
});

/** Where the lead came from (docs/attribution.md): derived from its fields, which stay as sent. */
export const attributionSchema = z
  .object({ first_touch: touchSchema, last_touch: touchSchema })
  .meta({ description: "The first and last touch, derived from the utm_* fields and the attribution extra fields (docs/attribution.md)." });

function touchPayload(touch: Touch): z.infer<typeof touchSchema> {
  return {
    channel_group: touch.channelGroup,
    source: touch.source,
    medium: touch.medium,
    campaign: touch.campaign,
    term: touch.term,
    content: touch.content,
    landing_page: touch.landingPage,
    referrer: touch.referrer,
    click_ids: Object.fromEntries(touch.clickIds.map(({ name, value }) => [name, value])),
    at: touch.at,
  };
}

/** A lead's attribution as events carry it. */
export function attributionPayload(lead: Parameters<typeof leadAttribution>[0]): z.infer<typeof attributionSchema> {
  const { first, last } = leadAttribution(lead);
  return { first_touch: touchPayload(first), last_touch: touchPayload(last) };
}

/** The consent a lead's creating submission carried (docs/consent.md): "none" when it carried no consent fields. */
export const consentPayloadSchema = z
  .object({
    status: z.enum(["none", ...CONSENT_STATUSES]).meta({
      description: "pending: given on a form with double opt-in, the confirmation email sent (lead.consent_changed follows).",
    }),
    version: nullableText.meta({ description: "The web form's consent version (cv_…): its exact text; null for an API client's consent." }),
    at: nullableText.meta({
      description: "When consent was given or refused (consent_at if an API client sent one, else the receive time).",
    }),
  })
  .meta({ description: "The consent evidence derived from the submission that created the lead (docs/consent.md)." });
export type ConsentPayload = z.infer<typeof consentPayloadSchema>;

/** A submission's evidence as events carry it. */
export function consentPayload(
  consent: { status: ConsentStatus; versionId: string | null; consentAt: Date } | null | undefined,
): ConsentPayload {
  return consent
    ? { status: consent.status, version: consent.versionId, at: consent.consentAt.toISOString() }
    : { status: "none", version: null, at: null };
}

export const leadCreatedEventSchema = z.object({
  id: z.string().meta({ description: "The event id, also sent as the webhook-id header; the same for every retry.", example: "evt_3f0c…" }),
  type: z.literal(LEAD_CREATED),
  timestamp: z.iso.datetime().meta({ description: "When the lead was created (UTC)." }),
  data: z.object({
    team: teamSchema,
    lead: z.object({
      id: z.string().meta({ example: "CRM-LEAD-00001" }),
      first_name: z.string(),
      last_name: nullableText,
      email: nullableText,
      phone: nullableText.meta({ description: "E.164, e.g. +14155550123" }),
      mobile_no: nullableText.meta({ description: "E.164" }),
      organization: z.string(),
      job_title: nullableText,
      website: nullableText,
      territory: nullableText,
      industry: nullableText,
      annual_revenue: nullableText,
      no_of_employees: nullableText,
      currency: z.string().meta({ example: "USD" }),
      source: z.string().meta({ description: "The lead source's name, e.g. Website" }),
      utm: z.object({
        source: nullableText,
        medium: nullableText,
        campaign: nullableText,
        term: nullableText,
        content: nullableText,
      }),
      extra_fields: z.record(z.string(), z.union([scalar, z.array(scalar)])).meta({
        description: "Fields the request sent beyond the documented ones, as sent (a repeated field as a list).",
      }),
      attribution: attributionSchema,
      skipped: z.object({ phone: nullableText, mobile_no: nullableText, website: nullableText }).meta({
        description: "What was sent as phone, mobile_no or website when it was unreadable and skipped.",
      }),
      status: leadStatusSchema.meta({ description: "The lead's status: new for every new lead." }),
      owner: leadOwnerSchema,
      consent: consentPayloadSchema,
    }),
    created_by: z.object({
      api_key_id: nullableText.meta({ description: "The API key that created the lead, or null." }),
      form_id: nullableText.meta({ description: "The web form that created the lead, or null." }),
      connection_id: nullableText.meta({ description: "The form-builder connection that created the lead, or null." }),
    }),
  }),
});
export type LeadCreatedEvent = z.infer<typeof leadCreatedEventSchema>;

export const testEventSchema = z.object({
  id: z.string(),
  type: z.literal(TEST_EVENT),
  timestamp: z.iso.datetime(),
  data: z.object({ team: teamSchema, message: z.string() }),
});

/** What created a lead: an API key, a web form or a form-builder connection. */
export type LeadOrigin = { apiKeyId?: string | null; formId?: string | null; connectionId?: string | null };

export function newEventId(): string {
  return `evt_${randomUUID().replaceAll("-", "")}`;
}

/**
 * The lead.created payload for a lead just inserted (inside its transaction). Built as the
 * schema's type, field by field in the schema's order, rather than parsed through it: every
 * create with a subscribed endpoint paid for a zod parse of its own output. That the two
 * agree (the same JSON, but for extra_fields, which are as sent: the parse dropped a field
 * named __proto__) is a test (lead-created-event.test.ts, on generated leads), not a check
 * on the hot path.
 */
export function leadCreatedEvent(options: {
  eventId: string;
  at: Date;
  team: { id: string; slug: string };
  leadId: string;
  lead: NewLead;
  sourceName: string;
  origin: LeadOrigin;
  /** A new lead is New and unassigned unless told otherwise. */
  status?: LeadStatus;
  owner?: LeadOwner;
  /** The evidence the creating submission carried (docs/consent.md); absent: none. */
  consent?: Parameters<typeof consentPayload>[0];
}): LeadCreatedEvent {
  const { lead, owner } = options;
  return {
    id: options.eventId,
    type: LEAD_CREATED,
    timestamp: options.at.toISOString(),
    data: {
      team: { id: options.team.id, slug: options.team.slug },
      lead: {
        id: options.leadId,
        first_name: lead.firstName,
        last_name: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        mobile_no: lead.mobileNo,
        organization: lead.organization,
        job_title: lead.jobTitle,
        website: lead.website,
        territory: lead.territory,
        industry: lead.industry,
        annual_revenue: lead.annualRevenue,
        no_of_employees: lead.noOfEmployees,
        currency: lead.currency,
        source: options.sourceName,
        utm: {
          source: lead.utmSource,
          medium: lead.utmMedium,
          campaign: lead.utmCampaign,
          term: lead.utmTerm,
          content: lead.utmContent,
        },
        extra_fields: lead.extraFields,
        attribution: attributionPayload(lead),
        skipped: { phone: lead.skippedPhone, mobile_no: lead.skippedMobileNo, website: lead.skippedWebsite },
        status: options.status ?? NEW_LEAD_STATUS,
        owner: owner ? { id: owner.id, email: owner.email, name: owner.name } : null,
        consent: consentPayload(options.consent),
      },
      created_by: {
        api_key_id: options.origin.apiKeyId ?? null,
        form_id: options.origin.formId ?? null,
        connection_id: options.origin.connectionId ?? null,
      },
    },
  };
}

export function testEvent(options: { eventId: string; at: Date; team: { id: string; slug: string } }) {
  return testEventSchema.parse({
    id: options.eventId,
    type: TEST_EVENT,
    timestamp: options.at.toISOString(),
    data: { team: options.team, message: "A test event from Lead Intake: your endpoint is reachable." },
  });
}
