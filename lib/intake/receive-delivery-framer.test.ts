import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Framer delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Framer"), on a real database: the example body signed as Framer signs
// (Framer-Signature "sha256=" + hex HMAC-SHA256 of the body followed by the
// Framer-Webhook-Submission-Id), the lead it makes field by field, wrong signatures (401,
// nothing stored), Framer's retries of one submission (one lead), and the replay of a
// delivery kept as "needs mapping", which keeps the submission id its header gave.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { INVALID_SIGNATURE, replayDelivery } = await import("./receive-delivery");
const { FRAMER_SUBMISSION_ID, framerExample, framerHeaders } = await import("../connections/fixtures/framer-example");
const { changes, CLI_ACTOR, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

/** A team with a Framer connection: its secret is ours, to set in Framer's webhook. */
const connectFramer = async () => {
  const created = await connect("framer");
  return { ...created, secret: created.signingSecret! };
};

const framerBody = (fields: Record<string, unknown> = framerExample()) => JSON.stringify(fields);

describe("POST /api/connections/<token> (Framer)", () => {
  test("the example signed as Framer signs: 201 and the lead, field by field; the submission id is Framer's header", async () => {
    const c = await connectFramer();
    assert.ok(c.secret.length >= 32, "Framer asks for a secret of at least 32 characters");
    const body = framerBody();
    const response = await deliver(c.token, body, framerHeaders(body, c.secret));
    assert.equal(response.status, 201);
    const answer = await response.json();
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace");
    assert.equal(lead!.email, "ada@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.organization, "Analytical Engines");
    assert.equal(lead!.connectionId, c.id);
    assert.deepEqual(lead!.extraFields, { Budget: "€5k–€10k", Message: "We would like a new website for the spring launch." });
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, FRAMER_SUBMISSION_ID, null],
    );
  });

  test("Framer's retry of a submission (same id, same body) answers the same lead and creates nothing", async () => {
    const c = await connectFramer();
    const body = framerBody();
    const first = await deliver(c.token, body, framerHeaders(body, c.secret, "retry-1"));
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body, framerHeaders(body, c.secret, "retry-1"));
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    // Another submission with the same answers is another lead.
    assert.equal((await deliver(c.token, body, framerHeaders(body, c.secret, "retry-2"))).status, 201);
    assert.equal((await leadsOf(c.team.id)).length, 2);
    const log = await logOf(c.id);
    assert.deepEqual(
      log.map((row) => [row.submissionId, row.attempts]),
      [
        ["retry-1", 2],
        ["retry-2", 1],
      ],
    );
  });

  test("a wrong secret, a missing signature or id, another id, a changed byte: 401, nothing stored", async () => {
    const c = await connectFramer();
    const body = framerBody();
    const right = framerHeaders(body, c.secret);
    for (const headers of [
      framerHeaders(body, `${c.secret}x`),
      { "Framer-Webhook-Submission-Id": FRAMER_SUBMISSION_ID },
      { "Framer-Signature": right["Framer-Signature"]! },
      { ...right, "Framer-Webhook-Submission-Id": "another-submission" },
      {} as Record<string, string>,
    ]) {
      const response = await deliver(c.token, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { success: false, error: INVALID_SIGNATURE, message: "Authentication failed" });
    }
    assert.equal((await deliver(c.token, body.replace("Ada", "Adb"), right)).status, 401);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    assert.ok((await logOf(c.id)).every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null));
  });

  test("kept as 'needs mapping', replayed once mapped: the lead keeps the header's submission id; Framer's retry then finds it", async () => {
    const c = await connectFramer();
    const { Name: _name, ...fields } = framerExample();
    const body = framerBody({ ...fields, "Who are you?": "Grace Hopper" });
    const headers = framerHeaders(body, c.secret, "kept-1");
    assert.equal((await deliver(c.token, body, headers)).status, 202);
    const [kept] = await logOf(c.id);
    assert.deepEqual([kept!.outcome, kept!.submissionId, kept!.payload], ["needs_mapping", "kept-1", body]);

    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { "Who are you?": "name" }, actor: CLI_ACTOR });
    const context = { requestId: "framer-replay", ip: "198.51.100.7" };
    assert.equal((await replayDelivery({ teamId: c.team.id, deliveryId: kept!.id, context }))?.kind, "created");
    const [lead, ...more] = await leadsOf(c.team.id);
    assert.equal(more.length, 0);
    assert.deepEqual([lead!.firstName, lead!.lastName], ["Grace", "Hopper"]);
    const [row, ...others] = await logOf(c.id);
    assert.equal(others.length, 0);
    assert.deepEqual([row!.outcome, row!.submissionId, row!.leadId], ["created", "kept-1", lead!.id]);

    const retry = await deliver(c.token, body, headers);
    assert.equal(retry.status, 200);
    assert.equal((await retry.json()).lead_id, lead!.id);
  });

  test("a body that is not a flat object of fields: 422, kept in the log to read, nothing stored", async () => {
    const c = await connectFramer();
    const body = JSON.stringify({ Name: "Ada", Address: { city: "Ghent" } });
    const response = await deliver(c.token, body, framerHeaders(body, c.secret));
    assert.equal(response.status, 422);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
