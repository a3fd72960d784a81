import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// The webhook outbox (lib/leads/lead-writer.ts with lib/webhooks/lead-created-event.ts): a
// created lead's delivery jobs commit with the lead, one per subscribed, enabled endpoint, and
// a lead whose transaction rolls back leaves none. Delivering them: webhook-delivery-retries.test.ts
// and webhook-delivery-claims.test.ts.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { createLead } = await import("../leads/create-lead");
const { parseLeadInput } = await import("../leads/parse-lead-input");
const { createTeam } = await import("../teams/team-store");
const { leadCreatedEventSchema } = await import("./lead-created-event");
const { jobsOf, lead, nextTeam, teamsMade, teamWithEndpoint } = await import("./webhook-delivery.fixtures");

// Deliveries and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("the outbox row commits with the lead", () => {
  test("a created lead gets one job per subscribed, enabled endpoint", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const { leadId } = await lead(team, "Ada Lovelace");
    const [job, ...others] = await jobsOf(team.id);
    assert.equal(others.length, 0);
    assert.deepEqual([job!.kind, job!.endpointId, job!.state, job!.eventType], ["webhook", endpoint.id, "pending", "lead.created"]);
    const payload = leadCreatedEventSchema.parse(JSON.parse(job!.payload));
    assert.equal(payload.id, job!.eventId);
    assert.deepEqual(
      [
        payload.data.lead.id,
        payload.data.lead.first_name,
        payload.data.lead.utm.source,
        payload.data.lead.extra_fields,
        payload.data.lead.status,
        payload.data.lead.owner,
        payload.data.created_by,
      ],
      [leadId, "Ada", "ads", { colour: "teal" }, "new", null, { api_key_id: "key-1", form_id: null, connection_id: null }],
    );
  });

  test("a lead whose transaction rolls back leaves no job", async () => {
    const { team } = await teamWithEndpoint();
    // A proof-of-work solution spent before: the lead's transaction rolls back at its end.
    const spent = { id: `nonce-${teamsMade()}`, expiresAt: new Date(Date.now() + 60_000), replayed: () => new Error("replayed") };
    await db().spentChallenge.create({ data: { id: spent.id, expiresAt: spent.expiresAt } });
    await assert.rejects(
      createLead({
        team: { id: team.id, defaultPhoneCountry: null },
        apiKeyId: null,
        input: parseLeadInput([["name", "Rolled Back"]]),
        spentChallenge: spent,
      }),
      /replayed/,
    );
    assert.deepEqual(await jobsOf(team.id), []);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
  });

  test("no endpoint, or a disabled one: no job", async () => {
    const team = await createTeam({ slug: `hooks-${nextTeam()}`, name: "No hooks" });
    await lead(team, "Nobody Listens");
    const { team: other, endpoint } = await teamWithEndpoint();
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    await lead(other, "Disabled Listener");
    assert.deepEqual([...(await jobsOf(team.id)), ...(await jobsOf(other.id))], []);
  });
});
