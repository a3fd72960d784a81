import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, mock, test } from "node:test";

// A Typeform delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Typeform"), on a real database: Typeform's documented example body
// with a name question and a UTM hidden field added, signed as Typeform signs
// ("Typeform-Signature: sha256=<base64 HMAC-SHA256>" over the bytes sent), the lead it makes
// field by field, wrong signatures (401, nothing stored) and Typeform's retries of one
// response (one lead).
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { INVALID_SIGNATURE } = await import("./receive-delivery");
const { typeformExample } = await import("../connections/fixtures/typeform-example");
const { connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const NAME_QUESTION = { id: "nAmE7yPeF0rm", title: "What's your full name?", type: "short_text", ref: "full_name" };
const NAME_ANSWER = { type: "text", text: "Laura Smith", field: { id: "nAmE7yPeF0rm", type: "short_text" } };

/** The documented example with a name question answered and a UTM hidden field, as compact JSON. */
function typeformBody(token = "a3a12ec67a1365927098a606107fac15"): string {
  const body = typeformExample() as {
    form_response: { token: string; hidden: object; answers: unknown[]; definition: { fields: unknown[] } };
  };
  const response = body.form_response;
  response.token = token;
  response.hidden = { ...response.hidden, utm_source: "newsletter" };
  response.definition.fields.push(NAME_QUESTION);
  response.answers.push(NAME_ANSWER);
  return JSON.stringify(body);
}

const typeformSignature = (body: string, secret: string) => `sha256=${createHmac("sha256", secret).update(body).digest("base64")}`;

describe("POST /api/connections/<token> (Typeform)", () => {
  test("Typeform's documented example with a name, signed as Typeform signs: 201 and the lead, field by field", async () => {
    const c = await connect("typeform");
    assert.ok(c.signingSecret, "a Typeform connection is given a secret to paste into the webhook");
    const body = typeformBody();
    const response = await deliver(c.token, body, { "Typeform-Signature": typeformSignature(body, c.signingSecret) });
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Laura");
    assert.equal(lead!.lastName, "Smith");
    assert.equal(lead!.email, "laura@example.com");
    assert.equal(lead!.utmSource, "newsletter");
    assert.equal(lead!.website, null, "the calendly booking's URL is not the website");
    assert.equal(lead!.connectionId, c.id);
    const extra = lead!.extraFields as Record<string, unknown>;
    assert.equal(extra["What is your first name?"], "Laura");
    assert.equal(extra["When did you move to the place where you live?"], "2005-10-15");
    assert.deepEqual(extra["Which pictures do you like? You can choose as many as you like."], ["London", "Sydney"]);
    assert.equal(extra["Which of these cities is your favorite?"], "London");
    assert.equal(extra["Do you have a favorite city we haven't listed?"], false);
    // A title longer than an extra field's name (64 characters) is cut with "…".
    assert.equal(extra["How would you rate the weather where you currently live? 1 is p…"], 3);
    assert.equal(extra["Book a time with me"], "https://calendly.com/scheduled_events/EVENT_TYPE/invitees/INVITEE");
    assert.equal(extra.user_id, "abc123456");
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, "a3a12ec67a1365927098a606107fac15", null],
    );
  });

  test("a wrong, missing, unprefixed or other connection's signature, or a changed byte: 401, nothing stored", async () => {
    const c = await connect("typeform");
    const other = await connect("typeform");
    const body = typeformBody("wrong1");
    const right = typeformSignature(body, c.signingSecret!);
    for (const headers of [
      {} as Record<string, string>,
      { "Typeform-Signature": "sha256=bm90IGl0" },
      { "Typeform-Signature": right.slice("sha256=".length) },
      { "Typeform-Signature": typeformSignature(body, other.signingSecret!) },
      // Tally's header is not Typeform's.
      { "Tally-Signature": right },
    ]) {
      const response = await deliver(c.token, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { success: false, error: INVALID_SIGNATURE, message: "Authentication failed" });
    }
    assert.equal((await deliver(c.token, body.replace("Laura Smith", "Laura Smyth"), { "Typeform-Signature": right })).status, 401);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    // 6 refusals with the same error from one address within seconds: one row, as the
    // request log keeps a flood (as it keeps refusals with a verified body).
    const log = await logOf(c.id);
    assert.equal(log.length, 1);
    assert.ok(log.every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null));
  });

  test("Typeform's retry of a response (the same token) answers the same lead and creates nothing", async () => {
    const c = await connect("typeform");
    const body = typeformBody("retry1");
    const headers = { "Typeform-Signature": typeformSignature(body, c.signingSecret!) };
    const first = await deliver(c.token, body, headers);
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body, headers);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], ["retry1", 2]);
  });

  test("a partial response (another event_type): 422, kept in the log to read, nothing stored", async () => {
    const c = await connect("typeform");
    const body = typeformBody("partial1").replace('"event_type":"form_response"', '"event_type":"form_response_partial"');
    const response = await deliver(c.token, body, { "Typeform-Signature": typeformSignature(body, c.signingSecret!) });
    assert.equal(response.status, 422);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
