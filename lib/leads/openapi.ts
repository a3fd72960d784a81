import { z } from "zod";
import { LEAD_CONSENT_CHANGED, LEAD_CREATED, LEAD_SUBMITTED, LEAD_UPDATED, leadCreatedEventSchema } from "../webhooks/lead-created-event";
import { leadConsentChangedEventSchema } from "../webhooks/lead-consent-changed-event";
import { leadSubmittedEventSchema } from "../webhooks/lead-submitted-event";
import { leadUpdatedEventSchema } from "../webhooks/lead-updated-event";
import { LIMITS, leadInputSchema } from "./lead-input-schema";

const PATH = "/api/method/crm.api.leads.create_lead";

const successSchema = z.object({
  success: z.literal(true),
  lead_id: z.string().meta({ description: "CRM-LEAD-<number>", example: "CRM-LEAD-00001" }),
  message: z.string().meta({
    example: "Lead created successfully (skipped invalid fields: phone)",
    description: 'Lead created successfully", with " (skipped invalid fields: …)" when phone or mobile_no was skipped.',
  }),
});

const errorSchema = z.object({
  success: z.literal(false),
  error: z.string().meta({ description: "Specific reason, e.g. Invalid API key, Name is required." }),
  message: z.string().meta({ description: "General category, e.g. Authentication failed, Validation failed." }),
});

const ERRORS: Record<string, string> = {
  "400": "Malformed JSON, a JSON body that is not an object, or an unreadable body.",
  "401": "Authentication failed: API key required, Team ID required or Invalid API key.",
  "405": "Any method other than POST.",
  "413": `Body larger than ${LIMITS.bodyBytes / 1024} KiB.`,
  "415": "Content type other than JSON, multipart/form-data or x-www-form-urlencoded.",
  "422": "Validation failed: Name is required, an invalid email, a non-scalar value, a limit exceeded.",
  "500": "Unexpected server error (generic text, no details).",
  "503": "The database is unavailable; retry later.",
};

const WEBHOOK_HEADERS: [string, string][] = [
  ["webhook-id", "The event id; the same on every retry. Skip ids already handled."],
  ["webhook-timestamp", "Unix seconds when the attempt was signed."],
  ["webhook-signature", "v1,<base64 HMAC-SHA256 of id.timestamp.body>, space-separated when there are several."],
];

/** OpenAPI 3.1 for create_lead, generated from the zod schema the handler validates with. */
export function openApiDocument(serverUrl?: string) {
  const body = z.toJSONSchema(leadInputSchema, { target: "draft-2020-12", io: "input" });
  const error = { content: { "application/json": { schema: z.toJSONSchema(errorSchema) } } };
  return {
    openapi: "3.1.0",
    info: { title: "Lead Creation API", version: "1.0.0" },
    ...(serverUrl ? { servers: [{ url: serverUrl, description: "This deployment" }] } : {}),
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        apiSecret: { type: "apiKey", in: "header", name: "X-API-Secret" },
      },
    },
    security: [{ apiKey: [], apiSecret: [] }],
    paths: {
      [PATH]: {
        post: {
          summary: "Create a lead in the team that owns the API key",
          operationId: "createLead",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: body },
              "multipart/form-data": { schema: body },
              "application/x-www-form-urlencoded": { schema: body },
            },
          },
          responses: {
            "201": {
              description: "Lead created",
              content: { "application/json": { schema: z.toJSONSchema(successSchema) } },
            },
            "200": {
              description:
                'Added to the lead of the person who sent it (a key set to "Add to their lead": message "Lead updated successfully"; docs/leads.md "Repeat submissions")',
              content: { "application/json": { schema: z.toJSONSchema(successSchema) } },
            },
            ...Object.fromEntries(Object.entries(ERRORS).map(([status, description]) => [status, { description, ...error }])),
          },
        },
      },
    },
    // What Lead Intake POSTs to a team's webhook endpoints (docs/webhooks.md), from the
    // schema that builds each payload.
    webhooks: {
      [LEAD_CREATED]: webhookOperation("A lead was created", "leadCreatedWebhook", leadCreatedEventSchema),
      [LEAD_UPDATED]: webhookOperation("A lead's status or owner changed", "leadUpdatedWebhook", leadUpdatedEventSchema),
      [LEAD_SUBMITTED]: webhookOperation(
        "A person submitted again and it joined their lead",
        "leadSubmittedWebhook",
        leadSubmittedEventSchema,
      ),
      [LEAD_CONSENT_CHANGED]: webhookOperation(
        "A person confirmed consent by a double opt-in email (or withdrew by its unsubscribe link)",
        "leadConsentChangedWebhook",
        leadConsentChangedEventSchema,
      ),
    },
  };
}

/** A webhook's entry in the OpenAPI document, its body from the schema that builds it. */
function webhookOperation(summary: string, operationId: string, schema: z.ZodType) {
  return {
    post: {
      summary,
      description:
        "Signed with the Standard Webhooks scheme (headers webhook-id, webhook-timestamp, webhook-signature; secret whsec_…). Answer 2xx within 10 s; anything else is retried with exponential backoff for about a day.",
      operationId,
      parameters: WEBHOOK_HEADERS.map(([name, description]) => ({
        name,
        in: "header",
        required: true,
        description,
        schema: { type: "string" },
      })),
      requestBody: {
        required: true,
        content: { "application/json": { schema: z.toJSONSchema(schema, { target: "draft-2020-12" }) } },
      },
      responses: { "2XX": { description: "Received; any other answer is retried." } },
    },
  };
}
