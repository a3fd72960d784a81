import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Webflow delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Webflow"), on a real database: a connection made with the secret
// Webflow gave for its webhook, Webflow's documented example signed as Webflow signs
// (x-webflow-timestamp in milliseconds, x-webflow-signature = hex HMAC-SHA256 of
// "<timestamp>:<body>"), the lead it makes field by field, a stale timestamp (401, nothing
// stored) and Webflow's retries of one submission (one lead).
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { INVALID_SIGNATURE, NO_SECRET_YET } = await import("./receive-delivery");
const { webflowExample, webflowHeaders } = await import("../connections/fixtures/webflow-example");
const { createTeam } = await import("../teams/team-store");
const { CLI_ACTOR, changes, db, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const SECRET = "0f5d9c2e8a7b6f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c";
let teams = 0;

/** A team with a Webflow connection made with the secret Webflow gave. */
async function connectWebflow() {
  const team = await createTeam({ slug: `webflow-${++teams}`, name: `Webflow ${teams}` });
  const created = await changes.createConnection({
    teamId: team.id,
    builder: "webflow",
    signingSecret: SECRET,
    createdById: null,
    actor: CLI_ACTOR,
  });
  return { team, ...created, token: created.path.split("/").pop()! };
}

/** The documented example with this submission id and a page, as compact JSON. */
function webflowBody(id = "6321ca84df3949bfc6752327"): string {
  const body = webflowExample() as { payload: Record<string, unknown> };
  Object.assign(body.payload, { id, pageId: "68f77ea29d6b098f6bcad76f", publishedPath: "/contact" });
  return JSON.stringify(body);
}

describe("POST /api/connections/<token> (Webflow)", () => {
  test("made without Webflow's secret, every delivery is refused (401) until the team sets it; it is never shown back", async () => {
    const team = await createTeam({ slug: "webflow-later", name: "Webflow later" });
    const made = await changes.createConnection({ teamId: team.id, builder: "webflow", createdById: null, actor: CLI_ACTOR });
    assert.equal(made.signingSecret, null);
    const token = made.path.split("/").pop()!;
    const body = webflowBody("later1");
    const early = await deliver(token, body, webflowHeaders(body, SECRET, Date.now()));
    assert.equal(early.status, 401);
    assert.equal((await early.json()).error, NO_SECRET_YET);
    assert.equal((await leadsOf(team.id)).length, 0);

    assert.equal(
      await changes.setConnectionSigningSecret({ teamId: team.id, id: made.id, secret: `  ${SECRET}  `, actor: CLI_ACTOR }),
      true,
    );
    assert.equal((await deliver(token, body, webflowHeaders(body, SECRET, Date.now()))).status, 201);
    const audit = await db().auditEvent.findMany({ where: { teamId: team.id, action: "connection.secret_set" } });
    assert.equal(audit.length, 1);
    assert.ok(!JSON.stringify(audit).includes(SECRET));
    // Only a builder that makes its own secret takes one; another team's connection is not found.
    const tally = await changes.createConnection({ teamId: team.id, builder: "tally", createdById: null, actor: CLI_ACTOR });
    assert.equal(await changes.setConnectionSigningSecret({ teamId: team.id, id: tally.id, secret: "x", actor: CLI_ACTOR }), false);
    const other = await createTeam({ slug: "webflow-other", name: "Webflow other" });
    assert.equal(await changes.setConnectionSigningSecret({ teamId: other.id, id: made.id, secret: "x", actor: CLI_ACTOR }), false);
    assert.equal(await changes.setConnectionSigningSecret({ teamId: team.id, id: made.id, secret: "   ", actor: CLI_ACTOR }), false);
  });

  test("Webflow's documented example signed with the timestamp now: 201 and the lead, field by field", async () => {
    const c = await connectWebflow();
    const body = webflowBody();
    const response = await deliver(c.token, body, webflowHeaders(body, SECRET, Date.now()));
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.firstName, "Zaphod");
    assert.equal(lead!.lastName, "Beeblebrox");
    assert.equal(lead!.email, "zaphod@heartofgold.ai");
    // 15550000000, sent without a country code, is no valid number for a team without a default
    // country: kept aside as create_lead keeps it, never lost.
    assert.equal(lead!.phone, null);
    assert.equal(lead!.skippedPhone, "15550000000");
    assert.equal(lead!.connectionId, c.id);
    assert.deepEqual(lead!.extraFields ?? {}, {});
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, "6321ca84df3949bfc6752327", null],
    );
  });

  test("a stale or future timestamp, a wrong secret, missing headers or a changed byte: 401, nothing stored", async () => {
    const c = await connectWebflow();
    const body = webflowBody("stale1");
    const minutes = (n: number) => Date.now() + n * 60_000;
    for (const headers of [
      webflowHeaders(body, SECRET, minutes(-6)),
      webflowHeaders(body, SECRET, minutes(6)),
      webflowHeaders(body, `${SECRET}x`, Date.now()),
      {} as Record<string, string>,
      { "x-webflow-signature": webflowHeaders(body, SECRET, Date.now())["x-webflow-signature"]! },
    ]) {
      const response = await deliver(c.token, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { success: false, error: INVALID_SIGNATURE, message: "Authentication failed" });
    }
    const right = webflowHeaders(body, SECRET, Date.now());
    assert.equal((await deliver(c.token, body.replace("Zaphod", "Zaphot"), right)).status, 401);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    // 6 refusals with the same error from one address within seconds: one row, as the
    // request log keeps a flood (as it keeps refusals with a verified body).
    const log = await logOf(c.id);
    assert.equal(log.length, 1);
    assert.ok(log.every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null));
  });

  test("Webflow's retry of a submission (the same payload.id, a new timestamp) answers the same lead and creates nothing", async () => {
    const c = await connectWebflow();
    const body = webflowBody("retry1");
    const first = await deliver(c.token, body, webflowHeaders(body, SECRET, Date.now()));
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body, webflowHeaders(body, SECRET, Date.now() + 1000));
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], ["retry1", 2]);
  });

  test("another triggerType (site_publish): 422, kept in the log to read, nothing stored", async () => {
    const c = await connectWebflow();
    const body = JSON.stringify({ triggerType: "site_publish", payload: { siteId: "65427cf400e02b306eaa049c" } });
    const response = await deliver(c.token, body, webflowHeaders(body, SECRET, Date.now()));
    assert.equal(response.status, 422);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
