import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Web form submissions end to end below the HTTP server: the endpoint's answer
// (lib/intake/web-form-endpoint.ts) to POST /api/forms/<id> for each rule of the issue (the
// form's source, the 303 to the thank-you page, a page saying what to fix, unknown and
// disabled forms, origins, the honeypot, the proof-of-work and its replays, the limits and
// what spends them, the refusals' log rows), on a real database (SQLite and PostgreSQL),
// with real ALTCHA challenges solved here. Read once by lib/env.ts: a cheap proof of work,
// and small limits that the limit tests spend.
process.env.FORM_CHALLENGE_COST = "1";
process.env.FORM_SUBMISSIONS_PER_IP = "4";
process.env.FORM_SUBMISSIONS_PER_FORM = "8";
process.env.NEXTAUTH_URL = "https://leads.example.net";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { db } = await import("../db/client");
const { addLeadSource } = await import("../teams/lead-sources");
const { createTeam } = await import("../teams/team-store");
const { listRequests } = await import("../request-log/request-log-store");
const { CHALLENGE_ERRORS, pruneSpentChallenges } = await import("./challenge");
const { SITE, leadsOf, newForm, nextTeam, post, solved, store } = await import("./web-forms.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("POST /api/forms/<id>", () => {
  test("a solved submission from an allowed origin creates the lead with the form's source; form fields stay out of extra fields", async () => {
    const team = await createTeam({ slug: `forms-${nextTeam()}`, name: "Sourced" });
    const source = await addLeadSource(team.id, "Landing page");
    const formId = await store.createWebForm({
      teamId: team.id,
      settings: { name: "Landing", allowedOrigins: [SITE], sourceId: source.id, successUrl: null, challenge: true },
      createdById: null,
      actor: CLI_ACTOR,
    });
    const response = await post(formId, {
      name: "Ada Lovelace",
      email: "ada@example.com",
      source: "Ignored: the form's source wins",
      message: "Call me",
      _gotcha: "",
      submit: "Send",
      "g-recaptcha-response": "x",
      altcha: await solved(formId),
    });
    assert.equal(response.status, 201);
    const body = (await response.json()) as { success: boolean; lead_id: string; message: string };
    assert.equal(body.message, "Lead created successfully");
    assert.equal(response.headers.get("access-control-allow-origin"), SITE);
    const [lead] = await leadsOf(team.id);
    assert.equal(lead?.id, body.lead_id);
    assert.equal(lead?.formId, formId);
    assert.equal(lead?.apiKeyId, null);
    assert.equal(lead?.source.name, "Landing page");
    assert.deepEqual(lead?.extraFields, { message: "Call me" });
    const [row] = (await listRequests({ teamId: team.id, of: { formId } })).rows;
    assert.equal(row?.status, 201);
    assert.equal(row?.leadId, body.lead_id);
  });

  test("a browser's form post is sent on (303) to the thank-you page or the form's success page", async () => {
    const { formId } = await newForm({ challenge: false });
    const thanks = await post(formId, { name: "Grace" }, { json: false });
    assert.equal(thanks.status, 303);
    assert.equal(thanks.headers.get("location"), `https://leads.example.net/f/${formId}/thanks`);
    const other = await newForm({ challenge: false, successUrl: "https://www.example.com/thank-you" });
    const custom = await post(other.formId, { name: "Grace" }, { json: false });
    assert.equal(custom.headers.get("location"), "https://www.example.com/thank-you");
  });

  test("a browser's invalid post gets a page saying what to fix, with a link back to the form; nothing is stored", async () => {
    const { team, formId } = await newForm({ challenge: false });
    const response = await post(formId, { email: "ada@example.com" }, { json: false, referer: `${SITE}/contact` });
    assert.equal(response.status, 422);
    assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
    const html = await response.text();
    assert.match(html, /Name is required/);
    assert.match(html, /href="https:\/\/www\.example\.com\/contact"/);
    assert.equal((await leadsOf(team.id)).length, 0);
    const refused = await post(formId, { name: "Ada", email: "not-an-email" });
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { message: string }).message, "Validation failed");
  });

  test("an unknown or disabled form is a 404; a disabled form's refusal is in its log", async () => {
    assert.equal((await post("form_AAAAAAAAAAAAAAAA", { name: "A" })).status, 404);
    assert.equal((await post("not-a-form-id", { name: "A" })).status, 404);
    const { team, formId } = await newForm({ challenge: false });
    await store.setWebFormEnabled({ teamId: team.id, formId, enabled: false, actor: CLI_ACTOR });
    const response = await post(formId, { name: "A" });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: string }).error, "Form not found");
    assert.equal(response.headers.get("access-control-allow-origin"), null);
    assert.equal((await listRequests({ teamId: team.id, of: { formId } })).rows[0]?.status, 404);
  });

  test("a foreign origin, or none, is refused (403) and stores nothing; the hosted page's own origin is allowed", async () => {
    const { team, formId } = await newForm({ challenge: false });
    for (const origin of ["https://evil.example", "https://example.com", null]) {
      const response = await post(formId, { name: "A" }, { origin });
      assert.equal(response.status, 403, String(origin));
      assert.equal(response.headers.get("access-control-allow-origin"), null);
    }
    assert.equal((await post(formId, { name: "A" }, { origin: null, referer: `${SITE}/contact` })).status, 201, "Referer when no Origin");
    assert.equal((await post(formId, { name: "A" }, { origin: "https://leads.example.net" })).status, 201, "the hosted page");
    assert.equal((await leadsOf(team.id)).length, 2);
    assert.equal((await listRequests({ teamId: team.id, of: { formId } })).rows.filter((r) => r.status === 403).length, 3);
  });

  test("a filled honeypot is answered as stored, stores nothing and is counted as spam", async () => {
    const { team, formId } = await newForm();
    const json = await post(formId, { name: "Bot", _gotcha: "http://spam.example" });
    assert.equal(json.status, 201);
    assert.deepEqual(await json.json(), { success: true, lead_id: null, message: "Lead created successfully" });
    const browser = await post(formId, { name: "Bot", _gotcha: "x" }, { json: false });
    assert.equal(browser.status, 303);
    assert.equal((await leadsOf(team.id)).length, 0);
    assert.equal((await store.findWebForm({ teamId: team.id, formId }))?.spamCount, 2);
  });

  test("the proof-of-work: missing, forged, for another form, expired and replayed solutions are refused (403); nothing is stored", async () => {
    const { team, formId } = await newForm();
    const other = await newForm();
    const errorOf = async (altcha?: string) => {
      const response = await post(formId, { name: "Ada", ...(altcha === undefined ? {} : { altcha }) });
      assert.equal(response.status, 403);
      return ((await response.json()) as { error: string }).error;
    };
    assert.equal(await errorOf(), CHALLENGE_ERRORS.missing);
    assert.equal(await errorOf("bm90IGpzb24="), CHALLENGE_ERRORS.invalid);
    assert.equal(await errorOf(await solved(other.formId)), CHALLENGE_ERRORS.invalid);
    // A made-up answer: another derived key than the one the challenge's signature covers.
    const forged = JSON.parse(Buffer.from(await solved(formId), "base64").toString()) as { solution: { derivedKey: string } };
    forged.solution.derivedKey = forged.solution.derivedKey.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    assert.equal(await errorOf(Buffer.from(JSON.stringify(forged)).toString("base64")), CHALLENGE_ERRORS.invalid);
    assert.equal(await errorOf(await solved(formId, new Date(Date.now() - 60 * 60 * 1000))), CHALLENGE_ERRORS.expired);

    const payload = await solved(formId);
    assert.equal((await post(formId, { name: "Ada", altcha: payload })).status, 201);
    assert.equal(await errorOf(payload), CHALLENGE_ERRORS.replayed);
    assert.equal((await leadsOf(team.id)).length, 1);
  });

  test("a solution sent twice at once stores one lead; a 422 does not spend it", async () => {
    const { team, formId } = await newForm();
    const payload = await solved(formId);
    assert.equal((await post(formId, { email: "no-name@example.com", altcha: payload })).status, 422);
    const answers = await Promise.all([1, 2, 3].map(() => post(formId, { name: "Ada", altcha: payload })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 403, 403]);
    assert.equal((await leadsOf(team.id)).length, 1);
  });

  test("spent challenges are forgotten once expired", async () => {
    await db().spentChallenge.create({ data: { id: "old-nonce", expiresAt: new Date(Date.now() - 1000) } });
    assert.ok((await pruneSpentChallenges()) >= 1);
    assert.equal(await db().spentChallenge.count({ where: { id: "old-nonce" } }), 0);
  });

  test("per address and per form limits answer 429 with Retry-After", async () => {
    const { formId } = await newForm({ challenge: false });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(formId, { name: "A" }, { ip: "198.51.100.77" })).status);
    assert.deepEqual(statuses, [201, 201, 201, 201, 429]);
    const limited = await post(formId, { name: "A" }, { ip: "198.51.100.77" });
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    // 4 of the form's 8 are spent (an address over its limit spends none); 4 more from
    // other addresses, then the form is full.
    for (let i = 0; i < 4; i++) assert.equal((await post(formId, { name: "A" })).status, 201);
    const full = await post(formId, { name: "A" });
    assert.equal(full.status, 429);
    assert.match(((await full.json()) as { error: string }).error, /^Too many submissions to this form/);
  });

  test("150 posts with a foreign origin write one request-log row, not 150", async () => {
    // Issue 27, finding 3: refusal rows are throttled per form, address and error.
    const { team, formId } = await newForm();
    const started = Date.now();
    for (let i = 0; i < 150; i++) {
      assert.equal((await post(formId, { name: "A" }, { origin: "https://evil.example", ip: "192.0.2.150" })).status, 403);
    }
    // One row per 10 s interval the loop touched: one, unless the machine is very slow.
    const intervals = Math.floor((Date.now() - started) / 10_000) + 1;
    const { rows } = await listRequests({ teamId: team.id, of: { formId } });
    assert.ok(rows.length >= 1 && rows.length <= intervals, `${rows.length} rows over ${intervals} intervals`);
    for (const row of rows) assert.deepEqual([row.status, row.error], [403, "This website is not allowed to send leads to this form"]);
  });

  test("only a submission that passed the honeypot, the proof-of-work and the rules spends the form's budget", async () => {
    // The review's reproduction: more bare posts than the form's budget (8), each refused,
    // then honeypot spam and invalid leads with a valid solution; the visitor after them
    // still gets through.
    const { team, formId } = await newForm();
    for (let i = 0; i < 10; i++) assert.equal((await post(formId, { name: "Bot" })).status, 403);
    for (let i = 0; i < 10; i++) assert.equal((await post(formId, { name: "Bot", _gotcha: "x" })).status, 201);
    const payload = await solved(formId);
    for (let i = 0; i < 10; i++) assert.equal((await post(formId, { email: "not-an-email", altcha: payload })).status, 422);
    assert.equal((await post(formId, { name: "Ada", altcha: payload })).status, 201);
    assert.equal((await leadsOf(team.id)).length, 1);
  });
});
