import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { LEAD_STATUSES } from "../leads/lead-status";
import { skippedFields, submissionFields } from "../leads/lead-write";
import { leadFieldsOf } from "../leads/lead-writer.fixtures";
import { leadSubmittedEvent, leadSubmittedEventSchema, leadSubmittedJobs } from "./lead-submitted-event";

// The lead.submitted payload is built as the schema's type, not parsed through the schema on
// every repeat submission (lib/webhooks/lead-submitted-event.ts). This is the check the parse
// made: on generated submissions (every field, awkward text, extra fields with any names,
// __proto__ among them, under extra_fields), the payload is what the schema makes of it, the
// same JSON byte for byte (key order included), so a receiver and the OpenAPI document see
// one shape.

const text = fc.string({ maxLength: 40 });
const nullable = fc.option(text, { nil: null });

test("lead.submitted's payload is what its schema makes of it, the same JSON, on generated submissions", () => {
  fc.assert(
    fc.property(
      leadFieldsOf("team_1"),
      fc.record({ first_name: text, last_name: nullable, email: nullable, phone: nullable, mobile_no: nullable, organization: text }),
      fc.constantFrom(...LEAD_STATUSES),
      fc.array(fc.constantFrom("email", "phone", "organization", "extra_fields.budget", "extra_fields.__proto__"), { maxLength: 4 }),
      fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
      (fields, lead, status, filled, at) => {
        const input = {
          team: { id: "team_1", slug: "demo" },
          lead: { id: "CRM-LEAD-00042", ...lead, status },
          submission: {
            id: "sub_1",
            channel: fields.connectionId ? ("connection" as const) : fields.formId ? ("form" as const) : ("api" as const),
            api_key_id: fields.apiKeyId,
            form_id: fields.formId,
            connection_id: fields.connectionId,
            fields: submissionFields(fields),
            skipped: skippedFields(fields),
          },
          filled,
          at,
        };
        const built = JSON.stringify(leadSubmittedEvent("evt_1", input));
        assert.equal(built, JSON.stringify(leadSubmittedEventSchema.parse(JSON.parse(built))));
        assert.deepEqual(JSON.parse(built).data.submission.fields, JSON.parse(JSON.stringify(submissionFields(fields))));
      },
    ),
    { numRuns: 2_000 },
  );
});

test("each subscribed endpoint gets one job with the one event's payload; none without an endpoint", () => {
  const input = {
    team: { id: "team_1", slug: "demo" },
    lead: {
      id: "CRM-LEAD-00042",
      first_name: "Ada",
      last_name: null,
      email: "ada@example.com",
      phone: null,
      mobile_no: null,
      organization: "Ada",
    },
    submission: {
      id: "sub_1",
      channel: "api" as const,
      api_key_id: "key_1",
      form_id: null,
      connection_id: null,
      fields: { name: "Ada" },
      skipped: [],
    },
    filled: [],
    at: new Date("2026-12-05T08:00:00Z"),
  };
  const withStatus = { ...input, lead: { ...input.lead, status: "new" as const } };
  assert.deepEqual(leadSubmittedJobs([], withStatus), []);
  const jobs = leadSubmittedJobs(["ep_1", "ep_2"], withStatus);
  assert.deepEqual(
    jobs.map((job) => job.endpointId),
    ["ep_1", "ep_2"],
  );
  const [first, second] = jobs.map((job) => JSON.parse(job.payload) as { id: string; data: { lead: { id: string } } });
  assert.equal(first!.id, second!.id);
  assert.equal(first!.id, jobs[0]!.eventId);
  assert.equal(first!.data.lead.id, "CRM-LEAD-00042");
});
