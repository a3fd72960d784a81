import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Each channel's spam checks (issue 42; docs/spam.md "Per channel"), on a real database
// (SQLite, and PostgreSQL in npm test's second pass): what a new key, form and connection
// start at; a change from the channel's page (owners and admins; a member is refused),
// audited once, and what it does to the next spam submission; each channel's count of the
// last 24 hours for its card. The CLIs: scripts/spam-checks-cli.test.ts.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { createApiKey } = await import("../api-keys/api-key-changes");
const { findApiKeyPage, listApiKeys } = await import("../api-keys/api-key-list");
const { createConnection } = await import("../connections/connection-changes");
const { findConnection, listConnections } = await import("../connections/connection-store");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { connect, deliver, tallyBody, tallySignature } = await import("../intake/receive-delivery.fixtures");
const { actorOf, makeTeam } = await import("../leads/lead-ownership.fixtures");
const { createWebForm } = await import("../web-forms/web-form-changes");
const { findWebForm, listWebForms } = await import("../web-forms/web-form-store");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { changeSpamChecks, SPAM_CHECKS_MANAGERS_ONLY } = await import("./channel-spam-checks");
const { recentSpamCounts } = await import("./quarantine-store");
const { parseSpamChecksChoice, SPAM_CHECKS_REFUSED } = await import("./spam-checks-setting");

mock.method(process.stderr, "write", () => true);

type Body = { success: boolean; lead_id: string; message: string };

/** A spam submission: a link in the name, and a disposable address. */
const SPAM = { name: "Cheap SEO http://seo-offer.example", email: "x@mailinator.com" };
const settings = { name: "Contact", allowedOrigins: ["https://www.example.com"], sourceId: null, successUrl: null, challenge: false };

let requests = 0;
async function send(key: { keyId: string; secret: string }, fields: Record<string, unknown>): Promise<Body> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `checks-${++requests}`, ip: "198.51.100.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  assert.equal(response.status, 201);
  return (await response.json()) as Body;
}

/** A spam delivery to a Tally connection (a link in the full name), with its own response id. */
let deliveries = 0;
async function deliverSpam(c: { token: string; signingSecret: string | null }): Promise<Body> {
  const body = tallyBody([{ key: "question_name", label: "Full name", type: "INPUT_TEXT", value: SPAM.name }], `spam${++deliveries}`);
  const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
  assert.equal(response.status, 201);
  return (await response.json()) as Body;
}

const auditOf = async (teamId: string, action: string) =>
  (await db().auditEvent.findMany({ where: { teamId, action }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [
    e.targetId,
    e.via,
    e.details,
  ]);
const where = (teamId: string) => ({ where: { teamId } });

describe("the choice a page or a CLI sends", () => {
  test("on and off are taken; anything else is refused with words, not an error", () => {
    assert.deepEqual(parseSpamChecksChoice("on"), { spamChecks: true });
    assert.deepEqual(parseSpamChecksChoice("off"), { spamChecks: false });
    for (const forged of ["", "ON", "yes", "true", true, null, undefined, 1, ["on"]]) {
      assert.deepEqual(parseSpamChecksChoice(forged), { problem: SPAM_CHECKS_REFUSED }, JSON.stringify(forged));
    }
  });
});

describe("what a new channel starts at", () => {
  test("a key: off unless told; a web form and a connection: on unless told; their creation's audit event says which", async () => {
    const { team } = await makeTeam();
    const plainKey = await createApiKey({ teamId: team.id, description: "Plain" });
    const checkedKey = await createApiKey({ teamId: team.id, description: "Checked", spamChecks: true });
    assert.equal((await findApiKeyPage({ keyId: plainKey.keyId, teamId: team.id }))!.spamChecks, false);
    assert.deepEqual((await listApiKeys(team.id)).map((k) => [k.description, k.spamChecks]).sort(), [
      ["Checked", true],
      ["Plain", false],
    ]);
    const plainForm = await createWebForm({ teamId: team.id, settings, createdById: null, actor: CLI_ACTOR });
    const openForm = await createWebForm({
      teamId: team.id,
      settings: { ...settings, name: "Open" },
      spamChecks: false,
      createdById: null,
      actor: CLI_ACTOR,
    });
    assert.equal((await findWebForm({ teamId: team.id, formId: plainForm }))!.spamChecks, true);
    assert.deepEqual(
      (await listWebForms(team.id)).map((f) => [f.name, f.spamChecks]),
      [
        ["Contact", true],
        ["Open", false],
      ],
    );
    const plainConnection = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor: CLI_ACTOR });
    const openConnection = await createConnection({
      teamId: team.id,
      builder: "tally",
      name: "Open",
      spamChecks: false,
      createdById: null,
      actor: CLI_ACTOR,
    });
    assert.equal((await findConnection({ teamId: team.id, id: plainConnection.id }))!.spamChecks, true);
    assert.deepEqual(
      (await listConnections(team.id)).map((c) => [c.id, c.spamChecks]),
      [
        [plainConnection.id, true],
        [openConnection.id, false],
      ],
    );

    const generated = Object.fromEntries(
      (await db().auditEvent.findMany({ where: { teamId: team.id, action: "api_key.generated" } })).map((e) => [e.targetId, e.details]),
    );
    assert.deepEqual(generated[plainKey.keyId], { description: "Plain", repeats: "new", spamChecks: false });
    assert.deepEqual(generated[checkedKey.keyId], { description: "Checked", repeats: "new", spamChecks: true });
    assert.deepEqual(
      (await auditOf(team.id, "web_form.created")).map(([id, , details]) => [id, details]),
      [
        [plainForm, { name: "Contact", repeats: "add", spamChecks: true }],
        [openForm, { name: "Open", repeats: "add", spamChecks: false }],
      ],
    );
    assert.deepEqual(
      (await auditOf(team.id, "connection.created")).map(([id, , details]) => [id, details]),
      [
        [plainConnection.id, { name: "Generic JSON", builder: "generic", repeats: "add", spamChecks: true }],
        [openConnection.id, { name: "Open", builder: "tally", repeats: "add", spamChecks: false }],
      ],
    );
  });

  test("a rolled key's replacement keeps its spam checks", async () => {
    const { rollApiKey } = await import("../api-keys/api-key-changes");
    const { team } = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site", spamChecks: true });
    const replacement = await rollApiKey({ keyId: key.keyId, teamId: team.id, oldKeyExpiresAt: new Date(), createdById: null });
    assert.equal((await findApiKeyPage({ keyId: replacement!.keyId, teamId: team.id }))!.spamChecks, true);
  });
});

describe("a change from the channel's page", () => {
  test("a key turned on by an admin: audited once, and the next spam post to it goes to the quarantine", async () => {
    const { team, admin } = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site" });
    const before = await send(key, SPAM);
    assert.equal(await db().lead.count({ where: { id: before.lead_id } }), 1, "off: the spam post is a lead");

    const turnOn = { channel: "api_key", teamId: team.id, id: key.keyId, choice: "on", role: "admin", actor: actorOf(admin) } as const;
    assert.deepEqual(await changeSpamChecks(turnOn), { ok: true });
    assert.deepEqual(await changeSpamChecks(turnOn), { ok: true }, "no change, no event");
    const after = await send(key, SPAM);
    assert.equal(await db().lead.count({ where: { id: after.lead_id } }), 0);
    assert.equal((await db().quarantinedLead.findUniqueOrThrow({ where: { id: after.lead_id } })).apiKeyId, key.keyId);
    assert.deepEqual(await auditOf(team.id, "api_key.spam_checks_set"), [
      [key.keyId, "web", { from: false, to: true, description: "Site" }],
    ]);
  });

  test("a web form turned off by its owner: a web_form.updated event with { spamChecks }, and a spam post is kept as a lead", async () => {
    const { team, formId } = await newForm({ challenge: false });
    const owner = await db().user.create({ data: { email: `form-owner-${formId}@example.com`, passwordHash: "x" } });
    const change = { channel: "web_form", teamId: team.id, id: formId, choice: "off", role: "owner", actor: actorOf(owner) } as const;
    assert.deepEqual(await changeSpamChecks(change), { ok: true });
    const answer = (await (await post(formId, SPAM)).json()) as Body;
    assert.equal(await db().lead.count({ where: { id: answer.lead_id, teamId: team.id } }), 1);
    assert.equal(await db().quarantinedLead.count(where(team.id)), 0);
    assert.deepEqual(await auditOf(team.id, "web_form.updated"), [[formId, "web", { name: "Contact", spamChecks: false }]]);
  });

  test("a connection turned off and on again: two events with what it was and is; off, a spam delivery is a lead", async () => {
    const c = await connect("tally");
    const owner = await db().user.create({ data: { email: `connection-owner-${c.id}@example.com`, passwordHash: "x" } });
    const change = (choice: string) =>
      changeSpamChecks({ channel: "connection", teamId: c.team.id, id: c.id, choice, role: "owner", actor: actorOf(owner) });
    assert.deepEqual(await change("off"), { ok: true });
    const kept = await deliverSpam(c);
    assert.equal(await db().lead.count({ where: { id: kept.lead_id } }), 1);
    assert.deepEqual(await change("on"), { ok: true });
    const caught = await deliverSpam(c);
    assert.equal((await db().quarantinedLead.findUniqueOrThrow({ where: { id: caught.lead_id } })).connectionId, c.id);
    assert.deepEqual(
      (await auditOf(c.team.id, "connection.spam_checks_set")).map(([id, , details]) => [id, details]),
      [
        [c.id, { name: "Tally", from: true, to: false }],
        [c.id, { name: "Tally", from: false, to: true }],
      ],
    );
  });

  test("a member cannot change it on any channel: refused in words, nothing written, no event", async () => {
    const { team, member } = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site" });
    const formId = await createWebForm({ teamId: team.id, settings, createdById: null, actor: CLI_ACTOR });
    const connection = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor: CLI_ACTOR });
    for (const [channel, id, choice] of [
      ["api_key", key.keyId, "on"],
      ["web_form", formId, "off"],
      ["connection", connection.id, "off"],
    ] as const) {
      const refused = await changeSpamChecks({ channel, teamId: team.id, id, choice, role: "member", actor: actorOf(member) });
      assert.deepEqual(refused, { ok: false, error: SPAM_CHECKS_MANAGERS_ONLY }, channel);
    }
    assert.equal((await findApiKeyPage({ keyId: key.keyId, teamId: team.id }))!.spamChecks, false);
    assert.equal((await findWebForm({ teamId: team.id, formId }))!.spamChecks, true);
    assert.equal((await findConnection({ teamId: team.id, id: connection.id }))!.spamChecks, true);
    const events = await db().auditEvent.findMany({
      where: { teamId: team.id, action: { in: ["api_key.spam_checks_set", "web_form.updated", "connection.spam_checks_set"] } },
    });
    assert.deepEqual(events, []);
  });

  test("a forged choice is refused; another team's channel or a made-up id is not found", async () => {
    const { team, owner } = await makeTeam();
    const other = await makeTeam();
    const key = await createApiKey({ teamId: other.team.id, description: "Theirs" });
    const formId = await createWebForm({ teamId: other.team.id, settings, createdById: null, actor: CLI_ACTOR });
    const connection = await createConnection({ teamId: other.team.id, builder: "generic", createdById: null, actor: CLI_ACTOR });
    const base = { teamId: team.id, role: "owner", actor: actorOf(owner) } as const;
    assert.deepEqual(await changeSpamChecks({ ...base, channel: "api_key", id: key.keyId, choice: "yes" }), {
      ok: false,
      error: SPAM_CHECKS_REFUSED,
    });
    for (const [channel, id] of [
      ["api_key", key.keyId],
      ["web_form", formId],
      ["connection", connection.id],
      ["web_form", "not-a-form"],
      ["connection", 42],
    ] as const) {
      const refused = await changeSpamChecks({ ...base, channel, id, choice: "off" });
      assert.equal(refused.ok, false, `${channel} ${id}`);
      assert.match((refused as { error: string }).error, /does not exist/);
    }
    assert.equal((await findApiKeyPage({ keyId: key.keyId, teamId: other.team.id }))!.spamChecks, false);
    assert.equal((await findWebForm({ teamId: other.team.id, formId }))!.spamChecks, true);
    assert.equal(
      await db().auditEvent.count({
        where: { action: { in: ["api_key.spam_checks_set", "connection.spam_checks_set"] }, teamId: other.team.id },
      }),
      0,
    );
  });
});

describe("each channel's spam of the last 24 hours", () => {
  test("counted per key, form and connection; older than 24 hours and other teams' not counted", async () => {
    const { team } = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site", spamChecks: true });
    const quiet = await createApiKey({ teamId: team.id, description: "Quiet", spamChecks: true });
    const old = await send(key, SPAM);
    await send(key, SPAM);
    await send(key, { ...SPAM, email: "y@mailinator.com" });
    await send(quiet, { name: "Grace Hopper", email: "grace@example.com" });
    // One of the key's is from 25 hours ago: outside the window.
    await db().quarantinedLead.update({ where: { id: old.lead_id }, data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) } });

    const formId = await createWebForm({ teamId: team.id, settings, createdById: null, actor: CLI_ACTOR });
    await post(formId, SPAM, { origin: settings.allowedOrigins[0] });
    const c = await connect("tally");
    await deliverSpam(c);
    await deliverSpam(c);

    assert.deepEqual([...(await recentSpamCounts(team.id, "apiKeyId"))], [[key.keyId, 2]]);
    assert.deepEqual([...(await recentSpamCounts(team.id, "formId"))], [[formId, 1]]);
    assert.deepEqual([...(await recentSpamCounts(team.id, "connectionId"))], [], "the connection is another team's");
    assert.deepEqual([...(await recentSpamCounts(c.team.id, "connectionId"))], [[c.id, 2]]);
    assert.deepEqual([...(await recentSpamCounts(c.team.id, "apiKeyId"))], []);
    assert.equal(await db().quarantinedLead.count(where(team.id)), 4, "the old one is still in the quarantine");
  });
});
