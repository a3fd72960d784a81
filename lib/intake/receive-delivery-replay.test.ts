import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import fc from "fast-check";

// Connections beyond Tally's signature (lib/intake/receive-delivery.ts, docs/connections.md), on
// a real database (SQLite and PostgreSQL): Generic JSON and form bodies, generated bodies that
// never give a 5xx, and the replay of a delivery kept as "needs mapping" (the page's Replay).
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { replayDelivery } = await import("./receive-delivery");
const { latestAnswers } = await import("../connections/connection-delivery-store");
const { CLI_ACTOR, changes, connect, deliver, leadsOf, logOf, tallyBody, tallySignature } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("replaying a delivery kept as 'needs mapping'", () => {
  test("a kept delivery replayed after the mapping changed becomes the lead; replayed again, or another team's, it is gone", async () => {
    const c = await connect("tally");
    const body = tallyBody([], "replay1");
    assert.equal((await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) })).status, 202);
    const [kept] = await logOf(c.id);
    const context = { requestId: "replay-test", ip: "198.51.100.7" };
    // Unmapped, a replay keeps it as it is.
    assert.equal((await replayDelivery({ teamId: c.team.id, deliveryId: kept!.id, context }))?.kind, "needs_mapping");
    // The page's editor lists the answers (keys, labels, targets; never their values).
    const answers = await latestAnswers(c.id);
    assert.ok(answers.some((answer) => answer.key === "question_3EKz4n" && answer.label === "Text" && answer.field === "Text"));
    assert.ok(!JSON.stringify(answers).includes("alice@example.com"));

    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { question_3EKz4n: "name" }, actor: CLI_ACTOR });
    const other = await connect("tally");
    assert.equal(await replayDelivery({ teamId: other.team.id, deliveryId: kept!.id, context }), null);
    const replayed = await replayDelivery({ teamId: c.team.id, deliveryId: kept!.id, context });
    assert.equal(replayed?.kind, "created");
    const [lead, ...more] = await leadsOf(c.team.id);
    assert.equal(more.length, 0);
    assert.deepEqual([lead!.firstName, lead!.connectionId], ["Hello", c.id]);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.leadId, row!.payload], ["created", lead!.id, null]);
    assert.equal(await replayDelivery({ teamId: c.team.id, deliveryId: kept!.id, context }), null);
  });
});

describe("POST /api/connections/<token> (Generic JSON)", () => {
  test("a nested JSON object: mapped by its paths, the rest kept as extra fields; the same body again is one lead", async () => {
    const c = await connect("generic");
    assert.equal(c.signingSecret, null);
    const body = JSON.stringify({ contact: { full_name: "Grace Hopper", email: "grace@example.com" }, company: "Navy", plan: ["a", "b"] });
    const response = await deliver(c.token, body);
    assert.equal(response.status, 201);
    assert.equal((await deliver(c.token, body)).status, 200);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.deepEqual([lead!.firstName, lead!.lastName, lead!.email, lead!.organization], ["Grace", "Hopper", "grace@example.com", "Navy"]);
    assert.deepEqual((lead!.extraFields as Record<string, unknown>).plan, ["a", "b"]);
  });

  test("urlencoded fields; an invalid email is kept as 'needs mapping', not lost", async () => {
    const c = await connect("generic");
    const form = new URLSearchParams({ name: "Katherine Johnson", email: "not-an-email" }).toString();
    const response = await deliver(c.token, form, { "content-type": "application/x-www-form-urlencoded" });
    assert.equal(response.status, 202);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.payload, row!.contentType], ["needs_mapping", form, "application/x-www-form-urlencoded"]);
    assert.match(row!.error!, /email/i);
  });

  test("JSON kept as it arrived, as text/plain or untyped, replays as JSON into the lead", async () => {
    const c = await connect("generic");
    const context = { requestId: "replay-plain", ip: "198.51.100.7" };
    for (const [n, type] of [
      [1, "text/plain;charset=UTF-8"],
      [2, ""],
    ] as const) {
      const body = JSON.stringify({ who: `Ada Lovelace ${n}`, email: `ada${n}@example.com` });
      assert.equal((await deliver(c.token, body, { "content-type": type })).status, 202);
    }
    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { who: "name" }, actor: CLI_ACTOR });
    for (const row of await logOf(c.id)) {
      assert.equal(
        (await replayDelivery({ teamId: c.team.id, deliveryId: row.id, context }))?.kind,
        "created",
        row.contentType ?? "untyped",
      );
    }
    assert.deepEqual((await leadsOf(c.team.id)).map((lead) => lead.lastName).sort(), ["Lovelace 1", "Lovelace 2"]);
  });

  test("submission ids that differ only in lone surrogates are two submissions, two leads", async () => {
    const c = await connect("googleforms");
    const { googleFormsExample } = await import("../connections/fixtures/googleforms-example");
    for (const id of ["\ud800a", "\ud801a"]) {
      const body = { ...(googleFormsExample() as Record<string, unknown>), responseId: id };
      assert.equal((await deliver(c.token, JSON.stringify(body))).status, 201);
    }
    assert.equal((await leadsOf(c.team.id)).length, 2);
    assert.ok((await logOf(c.id)).every((row) => row.submissionId?.startsWith("sha256-utf16:")));
  });

  test("generated JSON bodies never answer 5xx, and every answer is the envelope or a lead", async () => {
    const c = await connect("generic");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const response = await deliver(c.token, JSON.stringify(value));
        assert.ok(response.status < 500, `status ${response.status}`);
        const answer = await response.json();
        assert.equal(typeof answer.success, "boolean");
        if (!answer.success) assert.ok(answer.error && answer.message);
      }),
      { numRuns: 150 },
    );
  });
});

describe("a person's erasure", () => {
  test("deletes the kept deliveries whose body names the person (JSON or a form body, email or number), and no other", async () => {
    const { runErasure, parsePerson } = await import("../leads/erase-person");
    const c = await connect("generic");
    const posts = [
      JSON.stringify({ email: "Ada@Example.com", note: "no name" }),
      JSON.stringify({ phone: "+44 20 7946 0958", note: "no name" }),
      new URLSearchParams({ email: "ada@example.com", message: "no name" }).toString(),
      JSON.stringify({ email: "grace@example.com", note: "no name" }),
    ];
    for (const [index, body] of posts.entries()) {
      const type = index === 2 ? "application/x-www-form-urlencoded" : "application/json";
      assert.equal((await deliver(c.token, body, { "content-type": type })).status, 202);
    }
    const team = { id: c.team.id, defaultPhoneCountry: null };
    const actor = { ...CLI_ACTOR };
    const byEmail = await runErasure({ team, person: parsePerson("ada@example.com", team)!, confirmedIds: [], actor });
    assert.equal(byEmail.connectionDeliveries, 2);
    const byPhone = await runErasure({ team, person: parsePerson("+442079460958", team)!, confirmedIds: [], actor });
    assert.equal(byPhone.connectionDeliveries, 1);
    const left = await logOf(c.id);
    assert.deepEqual(
      left.map((row) => row.payload),
      [posts[3]],
    );
  });
});
