import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Google Forms delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Google Forms"), on a real database: the body is what our Apps Script
// (lib/connections/googleforms-script.ts), run in node:vm against fakes of Apps Script's
// objects, posts for the invented example response; the lead it makes field by field; the
// script posting the same response again (one lead); a body that is not the script's (422,
// nothing stored). Google Forms cannot sign: the URL is the credential, no header is checked.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { EXAMPLE_FORM, scriptRequest } = await import("../connections/fixtures/apps-script-fakes");
const { googleFormsExampleBody } = await import("../connections/fixtures/googleforms-example");
const { googleFormsScript } = await import("../connections/googleforms-script");
const { connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

/** A team with a Google Forms connection: a URL and no secret. */
const connectGoogleForms = () => connect("googleforms");

/** What the script posts for this response, to this connection's URL. */
function posted(token: string, form = EXAMPLE_FORM) {
  const request = scriptRequest(googleFormsScript(`https://leads.example.com/api/connections/${token}`), form);
  assert.equal(request.url, `https://leads.example.com/api/connections/${token}`);
  return { body: request.body, headers: { "content-type": request.contentType } };
}

describe("POST /api/connections/<token> (Google Forms)", () => {
  test("a Google Forms connection has no signing secret: the URL is the credential", async () => {
    const c = await connectGoogleForms();
    assert.equal(c.signingSecret, null);
  });

  test("the script's body for the example response: 201 and the lead, field by field", async () => {
    const c = await connectGoogleForms();
    const { body, headers } = posted(c.token);
    assert.equal(body, googleFormsExampleBody());
    const response = await deliver(c.token, body, headers);
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.connectionId, c.id);
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace");
    assert.equal(lead!.email, "ada@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.organization, "Analytical Engines Ltd");
    assert.equal(lead!.website, null);
    assert.deepEqual(lead!.extraFields, {
      "How can we help?": "Please call me back\nabout the engine.",
      "Preferred contact": "Phone",
      Interests: ["Engines", "Looms"],
      "Best day to call": "2025-03-20",
      "How likely are you to buy?": "4",
      "Rate our service": ["Speed: Fast"],
      "When can we call?": ["Monday: Morning, Evening"],
    });
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, EXAMPLE_FORM.responseId, null],
    );
  });

  test("the same response posted again (a second trigger, a manual re-run): 200, the same lead, nothing new", async () => {
    const c = await connectGoogleForms();
    const form = { ...EXAMPLE_FORM, responseId: "2_ABaOnucRetry" };
    const { body, headers } = posted(c.token, form);
    const first = await deliver(c.token, body, headers);
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body, { ...headers, "content-type": "application/json; charset=utf-8" });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], ["2_ABaOnucRetry", 2]);
  });

  test("a form with no name question: 202, kept as needing mapping, no lead", async () => {
    const c = await connectGoogleForms();
    const form = { ...EXAMPLE_FORM, responseId: "2_ABaOnucNoName", items: EXAMPLE_FORM.items.filter((item) => item.title !== "Full name") };
    const { body, headers } = posted(c.token, form);
    const response = await deliver(c.token, body, headers);
    assert.equal(response.status, 202);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.payload], ["needs_mapping", body]);
  });

  test("a body that is not the script's (another builder's, or any JSON): 422, kept in the log to read, nothing stored", async () => {
    const c = await connectGoogleForms();
    const bodies = [
      JSON.stringify({ eventType: "FORM_RESPONSE", data: { fields: [] } }),
      JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com" }),
      JSON.stringify({ ...JSON.parse(googleFormsExampleBody()), version: 2 }),
    ];
    // From three addresses: refusals of one error from one address are written once per interval (issue 40).
    for (const [i, body] of bodies.entries()) {
      assert.equal((await deliver(c.token, body, { "x-forwarded-for": `198.51.100.${i + 1}` })).status, 422);
    }
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const log = await logOf(c.id);
    assert.deepEqual(
      log.map((row) => [row.outcome, row.status, row.payload]),
      bodies.map((body) => ["refused", 422, body]),
    );
  });
});
