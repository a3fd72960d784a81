import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A form builder's delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md), on a real database (SQLite and PostgreSQL): Tally's documented example
// body signed as Tally signs it, the lead it makes field by field, the builder's retries (one
// lead), concurrent repeats, wrong signatures, unknown, rolled and disabled URLs (nothing
// stored, the refusal in the connection's log), "needs mapping" kept whole and made a lead once
// the mapping is changed. Generic JSON and the replay: receive-delivery-replay.test.ts.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CONNECTION_NOT_FOUND, CONNECTION_OFF, INVALID_SIGNATURE } = await import("./receive-delivery");
const { CLI_ACTOR, FULL_NAME, changes, connect, db, deliver, leadsOf, logOf, tallyBody, tallySignature } =
  await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("POST /api/connections/<token> (Tally)", () => {
  test("Tally's documented example with a name, signed as Tally signs: 201 and the lead, field by field", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME]);
    const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    assert.equal(answer.message, "Lead created successfully");
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace");
    assert.equal(lead!.email, "alice@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.website, "https://example.com");
    assert.equal(lead!.utmCampaign, "newsletter");
    assert.equal(lead!.connectionId, c.id);
    assert.equal(lead!.apiKeyId, null);
    assert.equal(lead!.source.name, "API");
    const extra = lead!.extraFields as Record<string, unknown>;
    assert.equal(extra.Text, "Hello");
    assert.equal(extra.Number, 10);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload], ["created", 201, lead!.id, "2wgx4n", null]);
    // Nothing of a connection's delivery goes to the API keys' request log.
    assert.equal(await db().apiRequest.count({ where: { teamId: c.team.id } }), 0);
  });

  test("the builder's retry of a submission answers the same lead and creates nothing", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME], "retry1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const first = await (await deliver(c.token, body, headers)).json();
    const again = await deliver(c.token, body, headers);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, first.lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.equal(row!.attempts, 2);
  });

  test("JSON sent as text/plain or with no Content-Type is read as JSON (a builder's header never loses its lead)", async () => {
    const c = await connect("tally");
    for (const [n, type] of [
      [1, "text/plain;charset=UTF-8"],
      [2, ""],
    ] as const) {
      const body = tallyBody([FULL_NAME], `plain${n}`);
      const answer = await deliver(c.token, body, { "content-type": type, "tally-signature": tallySignature(body, c.signingSecret!) });
      assert.equal(answer.status, 201, type);
    }
    assert.equal((await leadsOf(c.team.id)).length, 2);
    // Another type is still refused, and text that is not JSON is a 400.
    const body = tallyBody([FULL_NAME], "plain3");
    const signed = { "tally-signature": tallySignature(body, c.signingSecret!) };
    assert.equal((await deliver(c.token, body, { ...signed, "content-type": "application/xml" })).status, 415);
    const text = "name=Ada";
    assert.equal(
      (await deliver(c.token, text, { "content-type": "text/plain", "tally-signature": tallySignature(text, c.signingSecret!) })).status,
      400,
    );
  });

  test("the same submission delivered eight times at once makes one lead", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME], "burst1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const responses = await Promise.all(Array.from({ length: 8 }, () => deliver(c.token, body, headers)));
    const answers = await Promise.all(responses.map((r) => r.json()));
    assert.deepEqual(responses.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.lead_id)).size, 1);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    assert.equal((await logOf(c.id))[0]!.attempts, 8);
  });

  test("a wrong, missing or other connection's signature: 401, nothing stored, the refusal logged without the body", async () => {
    const c = await connect("tally");
    const other = await connect("tally");
    const body = tallyBody([FULL_NAME]);
    for (const headers of [
      {} as Record<string, string>,
      { "tally-signature": "bm90IGl0" },
      { "tally-signature": tallySignature(body, other.signingSecret!) },
    ]) {
      const response = await deliver(c.token, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { success: false, error: INVALID_SIGNATURE, message: "Authentication failed" });
    }
    // A byte changed after signing.
    const signed = tallySignature(body, c.signingSecret!);
    assert.equal((await deliver(c.token, body.replace("Ada", "Eve"), { "tally-signature": signed })).status, 401);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    // 4 refusals with the same error from one address within seconds: one row, as the
    // request log keeps a flood (as it keeps refusals with a verified body).
    const log = await logOf(c.id);
    assert.equal(log.length, 1);
    assert.ok(log.every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null && row.submissionId === null));
  });

  test("an unknown or malformed token: 404 and nothing stored anywhere", async () => {
    const before = await db().connectionDelivery.count();
    for (const token of ["c_AAAAAAAAAAAAAAAAAAAAAA", "nope", "c_../../x", ""]) {
      const response = await deliver(token, "{}");
      assert.equal(response.status, 404);
      assert.equal((await response.json()).error, CONNECTION_NOT_FOUND);
    }
    assert.equal(await db().connectionDelivery.count(), before);
  });

  test("a rolled URL: the old one works until the chosen time, then 404; the new one works", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME], "roll1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const rolled = await changes.rollConnectionUrl({
      teamId: c.team.id,
      id: c.id,
      oldWorksUntil: new Date(Date.now() + 3_600_000),
      actor: CLI_ACTOR,
    });
    assert.ok(rolled?.oldWorksUntil);
    assert.equal((await deliver(c.token, body, headers)).status, 201);
    const again = await changes.rollConnectionUrl({ teamId: c.team.id, id: c.id, oldWorksUntil: null, actor: CLI_ACTOR });
    const newToken = again!.path.split("/").pop()!;
    assert.equal((await deliver(c.token, body, headers)).status, 404);
    assert.equal((await deliver(rolled!.path.split("/").pop()!, body, headers)).status, 404);
    assert.equal((await deliver(newToken, body, headers)).status, 200);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const audit = await db().auditEvent.findMany({
      where: { teamId: c.team.id, action: { startsWith: "connection." } },
      orderBy: { createdAt: "asc" },
      select: { action: true, targetId: true },
    });
    assert.deepEqual(
      audit.map((event) => [event.action, event.targetId]),
      [
        ["connection.created", c.id],
        ["connection.url_rolled", c.id],
        ["connection.url_rolled", c.id],
      ],
    );
  });

  test("a turned-off connection: 403, nothing stored, the refusal in its log; on again, it takes leads", async () => {
    const c = await connect("tally");
    await changes.setConnectionEnabled({ teamId: c.team.id, id: c.id, enabled: false, actor: CLI_ACTOR });
    const body = tallyBody([FULL_NAME], "off1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const response = await deliver(c.token, body, headers);
    assert.equal(response.status, 403);
    assert.equal((await response.json()).error, CONNECTION_OFF);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    assert.deepEqual(
      (await logOf(c.id)).map((row) => [row.outcome, row.status, row.payload]),
      [["refused", 403, null]],
    );
    await changes.setConnectionEnabled({ teamId: c.team.id, id: c.id, enabled: true, actor: CLI_ACTOR });
    assert.equal((await deliver(c.token, body, headers)).status, 201);
  });

  test("Tally's example as it is has no name: kept whole as 'needs mapping' (202); mapped, the builder's retry makes the lead", async () => {
    const c = await connect("tally");
    const body = tallyBody();
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const kept = await deliver(c.token, body, headers);
    assert.equal(kept.status, 202);
    const answer = await kept.json();
    assert.equal(answer.success, true);
    assert.equal(answer.lead_id, null);
    assert.match(answer.message, /needs mapping/);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.submissionId, row!.payload, row!.leadId],
      ["needs_mapping", 202, "2wgx4n", body, null],
    );

    // The "Text" question holds the name.
    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { question_3EKz4n: "name" }, actor: CLI_ACTOR });
    const made = await deliver(c.token, body, headers);
    assert.equal(made.status, 201);
    const [lead] = await leadsOf(c.team.id);
    assert.equal(lead!.firstName, "Hello");
    assert.equal(lead!.email, "alice@example.com");
    const log = await logOf(c.id);
    assert.equal(log.length, 1);
    assert.deepEqual([log[0]!.outcome, log[0]!.leadId, log[0]!.payload, log[0]!.attempts], ["created", lead!.id, null, 2]);
  });

  test("a body that is not Tally's shape: 422, kept in the log to read, nothing stored", async () => {
    const c = await connect("tally");
    const body = JSON.stringify({ name: "Ada", email: "ada@example.com" });
    const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
    assert.equal(response.status, 422);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
