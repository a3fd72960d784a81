import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, mock, test } from "node:test";

// An Elementor Pro delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Elementor Pro"), on a real database (SQLite and PostgreSQL): the Form
// widget's Webhook action's urlencoded body, with Advanced Data off and on, the lead field by
// field; Elementor sends no submission id, so the body's digest is the submission (the same
// body again is the same lead); a JSON body is not Elementor's (422, kept). The action cannot
// sign: the URL is the connection's credential.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { ELEMENTOR_ADVANCED_EXAMPLE, ELEMENTOR_EXAMPLE } = await import("../connections/fixtures/elementor-example");
const { changes, CLI_ACTOR, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

// As WordPress posts an array body (cURL's type for a urlencoded body).
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };
const digest = (body: string) => `sha256:${createHash("sha256").update(body).digest("hex")}`;

const connectElementor = () => connect("elementor");

describe("POST /api/connections/<token> (Elementor Pro)", () => {
  test("Advanced Data off: the lead field by field by its labels; the metadata rows are no field of it", async () => {
    const c = await connectElementor();
    assert.equal(c.signingSecret, null);
    const body = ELEMENTOR_EXAMPLE.toString("utf8");
    const response = await deliver(c.token, body, FORM_TYPE);
    // Elementor Pro treats any status but 200 as its Webhook action failing (docs/connections.md):
    // a new lead answers 200 (the log keeps its outcome, created).
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("idempotent-replayed"), null);
    const answer = await response.json();
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace");
    assert.equal(lead!.email, "ada@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.connectionId, c.id);
    assert.deepEqual(lead!.extraFields, { Message: "Please call me back.\nThanks!", Interests: "Pricing, Demo" });
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, digest(body), null],
    );
  });

  test("Advanced Data on: email and phone by their types, the checkbox's choices a list; the same body again is the same lead", async () => {
    const c = await connectElementor();
    const body = ELEMENTOR_ADVANCED_EXAMPLE.toString("utf8");
    const first = await deliver(c.token, body, FORM_TYPE);
    assert.equal(first.status, 200);
    const [lead] = await leadsOf(c.team.id);
    assert.deepEqual([lead!.firstName, lead!.lastName, lead!.email, lead!.phone], ["Ada", "Lovelace", "ada@example.com", "+32491223344"]);
    assert.deepEqual(lead!.extraFields, { Message: "Please call me back.\nThanks!", Interests: ["Pricing", "Demo"] });

    // No submission id: a body sent twice (the visitor's second click in the same minute, a proxy's retry) is one lead.
    const again = await deliver(c.token, body, FORM_TYPE);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, lead!.id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], [digest(body), 2]);
  });

  test("a form without a name answer: kept whole as 'needs mapping' (200 to Elementor), a lead once its field is mapped", async () => {
    const c = await connectElementor();
    const body = "Your+question=Pricing%3F&E-mail=ada%40example.com&form_id=2c4c3bd&form_name=Ask";
    const kept = await deliver(c.token, body, FORM_TYPE);
    assert.equal(kept.status, 200);
    assert.equal((await kept.json()).lead_id, null);
    assert.equal((await logOf(c.id))[0]!.outcome, "needs_mapping");
    assert.equal((await leadsOf(c.team.id)).length, 0);
    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { "Your question": "name" }, actor: CLI_ACTOR });
    assert.equal((await deliver(c.token, body, FORM_TYPE)).status, 200);
    const [lead] = await leadsOf(c.team.id);
    assert.deepEqual([lead!.firstName, lead!.email], ["Pricing?", "ada@example.com"]);
  });

  test("a JSON body, or a form body without Elementor's form_id: 422, kept in the log to read, nothing stored", async () => {
    const c = await connectElementor();
    const json = JSON.stringify({ Name: "Ada Lovelace", form_id: "2c4c3bd" });
    assert.equal((await deliver(c.token, json, { "content-type": "application/json" })).status, 422);
    assert.equal((await deliver(c.token, "Name=Ada+Lovelace", FORM_TYPE)).status, 422);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    assert.deepEqual(
      (await logOf(c.id)).map((row) => [row.outcome, row.status, row.payload]),
      [
        ["refused", 422, json],
        ["refused", 422, "Name=Ada+Lovelace"],
      ],
    );
  });
});
