import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, mock, test } from "node:test";

// A Gravity Forms delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Gravity Forms"), on a real database (SQLite and PostgreSQL): the entry
// the Webhooks Add-On posts for Request Body "All Fields" (JSON, then FORM), kept as "needs
// mapping" until the input ids are mapped once, then the lead field by field; the add-on's
// next send of the same entry (one lead); "Select Fields" with our own names; a body that is
// not Gravity's (422, kept). The add-on cannot sign: the URL is the connection's credential.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { NEEDS_MAPPING } = await import("./receive-delivery");
const { GRAVITYFORMS_MAPPING, gravityFormsFormBody, gravityFormsJsonBody } = await import("../connections/fixtures/gravityforms-example");
const { changes, CLI_ACTOR, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };

/** A team with a Gravity Forms connection, mapped as the admin maps the example's input ids, or not. */
async function connectGravityForms(mapped: boolean) {
  const created = await connect("gravityforms");
  if (mapped)
    await changes.setConnectionMapping({ teamId: created.team.id, id: created.id, mapping: GRAVITYFORMS_MAPPING, actor: CLI_ACTOR });
  return created;
}

describe("POST /api/connections/<token> (Gravity Forms)", () => {
  test("the entry, unmapped: kept whole as 'needs mapping' (202); mapped once, the add-on's next send is the lead field by field", async () => {
    const c = await connectGravityForms(false);
    assert.equal(c.signingSecret, null);
    const body = gravityFormsJsonBody().toString("utf8");
    const kept = await deliver(c.token, body, JSON_TYPE);
    assert.equal(kept.status, 202);
    assert.match((await kept.json()).message, new RegExp(`^${NEEDS_MAPPING}`));
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.submissionId, row!.payload], ["needs_mapping", 202, "rocket.test#159", body]);

    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: GRAVITYFORMS_MAPPING, actor: CLI_ACTOR });
    const made = await deliver(c.token, body, JSON_TYPE);
    assert.equal(made.status, 201);
    const answer = await made.json();
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace");
    assert.equal(lead!.email, "ada@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.website, "https://example.com");
    assert.equal(lead!.connectionId, c.id);
    assert.deepEqual(lead!.extraFields, { "6": "Please call me back.\nThanks!", "4.1": "Newsletter" });
    const [after, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual(
      [after!.outcome, after!.status, after!.leadId, after!.submissionId, after!.payload],
      ["created", 201, lead!.id, "rocket.test#159", null],
    );

    // The same entry sent again (a feed re-sent from the entry, a retry): the same lead, nothing new.
    const again = await deliver(c.token, body, JSON_TYPE);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, lead!.id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    // One row for the entry, every send of it counted.
    assert.deepEqual(
      (await logOf(c.id)).map((r) => [r.outcome, r.submissionId, r.attempts]),
      [["created", "rocket.test#159", 3]],
    );
  });

  test("Request Format FORM: the same lead fields; the entry's id is the submission's, so another entry is another lead", async () => {
    const c = await connectGravityForms(true);
    const first = await deliver(c.token, gravityFormsFormBody("159").toString("utf8"), FORM_TYPE);
    assert.equal(first.status, 201);
    const [lead] = await leadsOf(c.team.id);
    assert.deepEqual(
      [lead!.firstName, lead!.lastName, lead!.email, lead!.phone, lead!.website],
      ["Ada", "Lovelace", "ada@example.com", "+32491223344", "https://example.com"],
    );
    assert.deepEqual(lead!.extraFields, { "4.1": "Newsletter", "6": "Please call me back.\nThanks!" });
    assert.equal((await deliver(c.token, gravityFormsFormBody("159").toString("utf8"), FORM_TYPE)).status, 200);
    assert.equal((await deliver(c.token, gravityFormsFormBody("160").toString("utf8"), FORM_TYPE)).status, 201);
    assert.deepEqual(
      (await logOf(c.id)).map((row) => [row.submissionId, row.attempts]),
      [
        ["rocket.test#159", 2],
        ["rocket.test#160", 1],
      ],
    );
  });

  test("Request Body Select Fields named as our fields: the lead without any mapping; without an id, the body's digest is the submission", async () => {
    const c = await connectGravityForms(false);
    const body = JSON.stringify({ first_name: "Grace", last_name: "Hopper", email: "grace@example.com", utm_source: "newsletter" });
    assert.equal((await deliver(c.token, body, JSON_TYPE)).status, 201);
    assert.equal((await deliver(c.token, body, JSON_TYPE)).status, 200);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.deepEqual(
      [lead!.firstName, lead!.lastName, lead!.email, lead!.utmSource],
      ["Grace", "Hopper", "grace@example.com", "newsletter"],
    );
    const [row] = await logOf(c.id);
    assert.equal(row!.submissionId, `sha256:${createHash("sha256").update(body).digest("hex")}`);
  });

  test("a body that is not Gravity Forms' (a list, an object as a value): 422, kept in the log to read, nothing stored", async () => {
    const c = await connectGravityForms(true);
    for (const body of ["[]", JSON.stringify({ id: "5", "1.3": { first: "Ada" } })]) {
      const response = await deliver(c.token, body, JSON_TYPE);
      assert.equal(response.status, 422);
    }
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const log = await logOf(c.id);
    assert.deepEqual(
      log.map((row) => [row.outcome, row.status, row.submissionId, row.attempts, row.payload]),
      [
        ["refused", 422, null, 1, "[]"],
        ["refused", 422, null, 1, JSON.stringify({ id: "5", "1.3": { first: "Ada" } })],
      ],
    );
  });
});
