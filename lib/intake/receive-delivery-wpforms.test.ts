import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A WPForms Webhooks delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "WPForms"), on a real database: the Request Body the addon writes, as
// JSON and as a form, signed as the addon signs (X-WPForms-Webhook-Signature
// "t=<seconds>,v=<hex HMAC-SHA256 of '<t>.<JSON>'>"), the lead it makes field by field, stale
// or wrong signatures (401, nothing stored), and the same delivery twice (one lead: WPForms
// sends no submission id, the body's digest stands for it).
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { INVALID_SIGNATURE } = await import("./receive-delivery");
const { WPFORMS_EXAMPLE_FORM, WPFORMS_EXAMPLE_JSON, wpformsHeaders } = await import("../connections/fixtures/wpforms-example");
const { connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const JSON_BODY = WPFORMS_EXAMPLE_JSON.toString("utf8");
const FORM_BODY = WPFORMS_EXAMPLE_FORM.toString("utf8");
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };
const nowSeconds = (minutes = 0) => Math.floor(Date.now() / 1000) + minutes * 60;

/** A team with a WPForms connection: its secret is ours, pasted into the webhook's Secret. */
const connectWPForms = async () => {
  const created = await connect("wpforms");
  return { ...created, secret: created.signingSecret! };
};

async function assertExampleLead(teamId: string, connectionId: string, leadId: string) {
  const [lead, ...others] = await leadsOf(teamId);
  assert.equal(others.length, 0);
  assert.equal(lead!.id, leadId);
  assert.equal(lead!.firstName, "Renée");
  assert.equal(lead!.lastName, "Dupont");
  assert.equal(lead!.email, "renee.dupont@example.com");
  assert.equal(lead!.phone, "+32491223344");
  assert.equal(lead!.organization, "Acme Widgets & Co");
  assert.equal(lead!.website, "https://example.com/about");
  assert.equal(lead!.utmSource, "newsletter");
  assert.equal(lead!.connectionId, connectionId);
  assert.deepEqual(lead!.extraFields, {
    services: ["Web design", "SEO"],
    message: "Hi! Please call me after 5pm.\nThanks.",
    callback: "06/16/2025 10:30 am",
    attachments: ["https://example.com/wp-content/uploads/wpforms/12-0f3c/brief.pdf"],
  });
}

describe("POST /api/connections/<token> (WPForms)", () => {
  test("Request Format JSON, signed now: 201 and the lead, field by field; the same delivery again is the same lead", async () => {
    const c = await connectWPForms();
    const headers = { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds()) };
    const response = await deliver(c.token, JSON_BODY, headers);
    assert.equal(response.status, 201);
    const { lead_id: leadId } = await response.json();
    await assertExampleLead(c.team.id, c.id, leadId);

    // The same request again (a proxy's retry, a replayed capture): the same lead.
    const again = await deliver(c.token, JSON_BODY, headers);
    assert.equal(again.status, 200);
    assert.equal((await again.json()).lead_id, leadId);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.outcome, row!.leadId, row!.attempts, row!.payload], ["created", leadId, 2, null]);
    // The submission id is the signature's HMAC: it covers the timestamp and the body.
    assert.match(row!.submissionId!, /^wpforms:[0-9a-f]{64}$/);
    // The same answers sent again later (a second entry, signed at another time) are a second lead.
    const later = await deliver(c.token, JSON_BODY, { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds() - 60) });
    assert.equal(later.status, 201);
    assert.equal((await leadsOf(c.team.id)).length, 2);
  });

  test("Request Format FORM, signed over the JSON of the same keys as the addon signs: 201 and the same lead", async () => {
    const c = await connectWPForms();
    // The addon signs wp_json_encode of the body's array: the JSON text, while it sends the form.
    const headers = { ...FORM_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds()) };
    const response = await deliver(c.token, FORM_BODY, headers);
    assert.equal(response.status, 201);
    await assertExampleLead(c.team.id, c.id, (await response.json()).lead_id);
    // Re-encoded ("%20" for "+"), the same signed request still verifies: the same submission, no second lead.
    const reencoded = FORM_BODY.replaceAll("+", "%20");
    assert.notEqual(reencoded, FORM_BODY);
    assert.equal((await deliver(c.token, reencoded, headers)).status, 200);
    assert.equal((await leadsOf(c.team.id)).length, 1);
  });

  test("a form body nested thousands deep (no name the addon writes): 401 before any recursion, never a 500", async () => {
    const c = await connectWPForms();
    const body = `a${"%5B%5D".repeat(6000)}=1`;
    const response = await deliver(c.token, body, { ...FORM_TYPE, "X-WPForms-Webhook-Signature": `t=${nowSeconds()},v=${"0".repeat(64)}` });
    assert.equal(response.status, 401);
  });

  test("a stale or future timestamp, a wrong secret, no header, a changed byte: 401, nothing stored", async () => {
    const c = await connectWPForms();
    const refusals: [string, Record<string, string>][] = [
      [JSON_BODY, { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds(-6)) }],
      [JSON_BODY, { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds(6)) }],
      [JSON_BODY, { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, `${c.secret}x`, nowSeconds()) }],
      [JSON_BODY, { ...JSON_TYPE, "X-WPForms-Webhook-Id": "1" }],
      [JSON_BODY.replace("Dupont", "Dupond"), { ...JSON_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds()) }],
      [FORM_BODY.replace("Dupont", "Dupond"), { ...FORM_TYPE, ...wpformsHeaders(JSON_BODY, c.secret, nowSeconds()) }],
      // A form body signed over its own bytes is not how the addon signs.
      [FORM_BODY, { ...FORM_TYPE, ...wpformsHeaders(FORM_BODY, c.secret, nowSeconds()) }],
    ];
    for (const [body, headers] of refusals) {
      const response = await deliver(c.token, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { success: false, error: INVALID_SIGNATURE, message: "Authentication failed" });
    }
    assert.equal((await leadsOf(c.team.id)).length, 0);
    assert.ok((await logOf(c.id)).every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null));
  });

  test("a Request Body without a name key: 202, kept as 'needs mapping', nothing stored", async () => {
    const c = await connectWPForms();
    const body = JSON.stringify({ email: "renee.dupont@example.com", services: "Web design||SEO" });
    const response = await deliver(c.token, body, { ...JSON_TYPE, ...wpformsHeaders(body, c.secret, nowSeconds()) });
    assert.equal(response.status, 202);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.payload], ["needs_mapping", body]);
  });
});
