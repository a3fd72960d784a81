import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ATTRIBUTION_FIELD_NAMES } from "../attribution/attribution-fields";
import { CONSENT_STATUSES } from "../consent/consent-evidence";
import { LEAD_STATUSES } from "../leads/lead-status";
import { leadFieldsOf } from "../leads/lead-writer.fixtures";
import { leadCreatedEvent, leadCreatedEventSchema } from "./lead-created-event";

// The lead.created payload is built as the schema's type, not parsed through the schema on
// every create (lib/webhooks/lead-created-event.ts). This is the check the parse made: on
// generated leads (every field, awkward text, the attribution script's fields, __proto__ and
// friends as extra field names), the payload is what the schema makes of it, the same JSON
// byte for byte (key order included), so a receiver and the OpenAPI document still see one
// shape; but for one thing the parse did wrong: zod's record parse drops an extra field named
// __proto__, which the payload now carries as sent (spec 2.2), as the lead stores it.

const attributionFields = fc.dictionary(
  fc.constantFrom(...ATTRIBUTION_FIELD_NAMES),
  fc.oneof(
    fc.constantFrom("google", "cpc", "https://www.google.com/", "https://example.com/landing?x=1", "2026-12-01T10:00:00Z", "Cj0KCQ"),
    fc.string({ maxLength: 30 }),
  ),
  { maxKeys: 8 },
);
const owner = fc.option(
  fc.record({ id: fc.string({ minLength: 1 }), email: fc.emailAddress(), name: fc.option(fc.string(), { nil: null }) }),
  { nil: null },
);
const consent = fc.option(
  fc.record({
    status: fc.constantFrom(...CONSENT_STATUSES),
    versionId: fc.option(fc.stringMatching(/^cv_[a-z0-9]{8}$/), { nil: null }),
    consentAt: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
  }),
  { nil: undefined },
);

describe("lead.created's payload", () => {
  test("is what its schema makes of it: the same object and the same JSON, on generated leads", () => {
    fc.assert(
      fc.property(
        leadFieldsOf("team_1"),
        attributionFields,
        fc.string(),
        owner,
        consent,
        fc.option(fc.constantFrom(...LEAD_STATUSES), { nil: undefined }),
        fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        (fields, attribution, sourceName, leadOwner, evidence, status, at) => {
          const event = leadCreatedEvent({
            eventId: "evt_1",
            at,
            team: { id: "team_1", slug: "demo" },
            leadId: "CRM-LEAD-00001",
            lead: { ...fields, extraFields: { ...fields.extraFields, ...attribution }, sourceId: "source_1", currency: "EUR" },
            sourceName,
            origin: { apiKeyId: fields.apiKeyId, formId: fields.formId, connectionId: fields.connectionId },
            status,
            owner: leadOwner,
            consent: evidence,
          });
          const parsed = leadCreatedEventSchema.parse(event);
          // The parse's answer with the extra fields as sent (a spread keeps each key's place).
          const sent = { ...parsed, data: { ...parsed.data, lead: { ...parsed.data.lead, extra_fields: event.data.lead.extra_fields } } };
          assert.equal(JSON.stringify(event), JSON.stringify(sent));
          assert.deepEqual(Object.keys(event.data.lead.extra_fields), Object.keys({ ...fields.extraFields, ...attribution }));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  test("an extra field named __proto__ is delivered as sent, beside the others (the schema's parse dropped it)", () => {
    const extraFields = Object.fromEntries([
      ["__proto__", "kept"],
      ["plan", "pro"],
    ]);
    const event = leadCreatedEvent({
      eventId: "evt_1",
      at: new Date("2026-12-05T00:00:00Z"),
      team: { id: "team_1", slug: "demo" },
      leadId: "CRM-LEAD-00001",
      lead: { ...fc.sample(leadFieldsOf("team_1"), 1)[0]!, extraFields, sourceId: "source_1", currency: "EUR" },
      sourceName: "API",
      origin: {},
    });
    assert.deepEqual(JSON.parse(JSON.stringify(event)).data.lead.extra_fields, JSON.parse('{"__proto__":"kept","plan":"pro"}'));
    assert.equal(JSON.stringify(leadCreatedEventSchema.parse(event).data.lead.extra_fields), '{"plan":"pro"}', "what the parse made of it");
  });

  test("names the owner by id, email and name alone, whatever else the owner's record holds", () => {
    const event = leadCreatedEvent({
      eventId: "evt_1",
      at: new Date("2026-12-05T00:00:00Z"),
      team: { id: "team_1", slug: "demo" },
      leadId: "CRM-LEAD-00001",
      lead: { ...fc.sample(leadFieldsOf("team_1"), 1)[0]!, sourceId: "source_1", currency: "EUR" },
      sourceName: "API",
      origin: {},
      owner: { id: "user_1", email: "owner@example.com", name: "Owner", passwordHash: "never sent" } as never,
    });
    assert.deepEqual(event.data.lead.owner, { id: "user_1", email: "owner@example.com", name: "Owner" });
  });
});
