import { z } from "zod";

// The request body of create_lead, written once: the handler validates with it and
// /api/openapi.json is generated from it. Values arrive as text (form-data) or JSON
// scalars; lib/leads/parse-lead-input.ts trims them, drops empty ones and reads
// numbers and booleans as text before this schema runs.

export const LIMITS = {
  name: 200,
  email: 254,
  website: 2048,
  // Phones are not refused for their length: a text that is no valid number is skipped
  // and kept as typed (spec 2.1); the limit only bounds what is kept.
  phone: 500,
  countryCode: 500,
  text: 500,
  number: 64,
  extraFieldCount: 50,
  extraFieldKey: 64,
  // A contact form's message of a few pages fits; the body limit bounds the whole request.
  extraFieldValue: 10_000,
  // Values of one repeated field (a checkbox group or a JSON array).
  extraFieldListItems: 100,
  bodyBytes: 64 * 1024,
} as const;

const text = (max: number, description: string) => z.string().max(max).optional().meta({ description });

const extraFieldScalars = [z.string().max(LIMITS.extraFieldValue), z.number(), z.boolean()] as const;

export const extraFieldValueSchema = z.union([
  ...extraFieldScalars,
  z
    .array(z.union(extraFieldScalars))
    .max(LIMITS.extraFieldListItems)
    .meta({ description: "A repeated field (interests=a&interests=b, interests[]=a, or a JSON array), in the order sent." }),
]);

export const leadInputSchema = z
  .object({
    name: z.string().max(LIMITS.name).meta({ description: "Full name. The first word becomes the first name, the rest the last name." }),
    email: z.email().max(LIMITS.email).optional().meta({ description: "Validated; an invalid address rejects the request." }),
    phone: text(
      LIMITS.phone,
      "Phone. With a leading + or 00 it is international; otherwise country_code or the team's default country is used. Invalid numbers are skipped, not rejected.",
    ),
    mobile_no: text(LIMITS.phone, "Mobile number; same rules as phone."),
    country_code: text(LIMITS.countryCode, "Dial code for plain numbers, e.g. +44 or 44."),
    source: text(LIMITS.text, "Name of a lead source of the team (case-insensitive); unknown names fall back to API."),
    organization: text(LIMITS.text, "Defaults to the lead's name."),
    job_title: text(LIMITS.text, "Job title."),
    website: z.string().max(LIMITS.website).optional().meta({
      description:
        "An http or https URL; a bare host name such as example.com is read as https://example.com and a user name and password are removed. Any other text is skipped like an invalid phone (named in the message suffix, kept as typed on the lead).",
    }),
    territory: text(LIMITS.text, "Territory."),
    industry: text(LIMITS.text, "Industry."),
    annual_revenue: z
      .union([z.string().max(LIMITS.number), z.number()])
      .optional()
      .meta({ description: "Stored as given." }),
    no_of_employees: z
      .union([z.string().max(LIMITS.number), z.number()])
      .optional()
      .meta({ description: "Stored as given." }),
    currency: text(LIMITS.text, "Accepted but always replaced by the workspace currency."),
    utm_source: text(LIMITS.text, "UTM source."),
    utm_medium: text(LIMITS.text, "UTM medium."),
    utm_campaign: text(LIMITS.text, "UTM campaign."),
    utm_term: text(LIMITS.text, "UTM term."),
    utm_content: text(LIMITS.text, "UTM content."),
  })
  .catchall(extraFieldValueSchema)
  .meta({
    description: `Any other field is stored in the lead's extra_fields (at most ${LIMITS.extraFieldCount} fields, the attribution fields such as first_utm_source, landing_page or gclid not counted, names up to ${LIMITS.extraFieldKey} characters, values up to ${LIMITS.extraFieldValue} characters; empty values are ignored). A field sent more than once, with a [] suffix or as a JSON array is stored as a list of up to ${LIMITS.extraFieldListItems} values, in the order sent, under its name without []. A known field sent more than once is refused: it is ambiguous.`,
  });

export type LeadInputFields = z.infer<typeof leadInputSchema>;

export const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(leadInputSchema.shape));
