import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// The spam quarantine at intake (issue 42, step 2; docs/spam.md): on a channel that runs the
// checks, a flagged submission is kept in the quarantine under a lead number of its own and
// answered exactly as a kept lead is (201, the envelope), so a sender learns nothing; it is
// not a lead (not in the list, no routing turn, no outbox row), the request log names its
// reasons, and a person's repeat submission never joins it. On a real database (SQLite, and
// PostgreSQL in npm test's second pass), through create_lead's, a web form's and a
// connection's use cases.
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { connect, deliver, tallyBody, tallySignature } = await import("./receive-delivery.fixtures");
const { makeTeam, actorOf } = await import("../leads/lead-ownership.fixtures");
const { saveRule } = await import("../routing/assignment-rules");
const { createEndpoint } = await import("../webhooks/webhook-endpoint-changes");
const { listRequests } = await import("../request-log/request-log-store");

mock.method(process.stderr, "write", () => true);

type Body = { success: boolean; lead_id: string; message: string };

/** A spam submission: a link in the name, and a disposable address. */
const SPAM = { name: "Cheap SEO http://seo-offer.example", email: "x@mailinator.com" };
const REAL = { name: "Ada Lovelace", email: "ada@example.com" };

let requests = 0;
async function send(key: { keyId: string; secret: string }, fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret, ...headers },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `spam-${++requests}`, ip: "198.51.100.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  return { status: response.status, body: (await response.json()) as Body };
}

/** A team of four with a round robin over its members and a webhook endpoint for new leads, and a key with the checks `spamChecks`. */
async function setUp(spamChecks: boolean) {
  const people = await makeTeam();
  const { team, owner } = people;
  const rule = await saveRule({
    teamId: team.id,
    actor: actorOf(owner),
    input: {
      name: "Everyone",
      enabled: true,
      conditions: [],
      mode: "round_robin",
      userIds: [people.admin.id, people.member.id],
      fallbackUserId: null,
    },
  });
  assert.ok(rule.ok);
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.test/x",
    description: null,
    events: ["lead.created"],
    actor: actorOf(owner),
  });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks, repeats: "add" } });
  const turn = async () => (await db().assignmentRule.findUniqueOrThrow({ where: { id: rule.ruleId } })).turn;
  return { ...people, key, turn };
}

describe("a flagged submission goes to the quarantine, answered as a kept lead", () => {
  test("create_lead with the checks on: 201 and the envelope, a lead number of its own, no lead, no turn, no outbox row; the log names why", async () => {
    const { team, key, turn } = await setUp(true);
    const kept = await send(key, { name: "Grace Hopper", email: "grace@example.com" });
    const turnBefore = await turn();
    const jobsBefore = await db().job.count({ where: { teamId: team.id } });
    const spam = await send(key, SPAM);
    assert.equal(spam.status, 201);
    assert.deepEqual(Object.keys(spam.body).sort(), ["lead_id", "message", "success"]);
    assert.deepEqual([spam.body.success, spam.body.message], [true, "Lead created successfully"]);
    assert.equal(Number(spam.body.lead_id.slice(9)), Number(kept.body.lead_id.slice(9)) + 1, "the next lead number, as a kept lead's");

    assert.equal(await db().lead.count({ where: { id: spam.body.lead_id } }), 0, "not a lead");
    const quarantined = await db().quarantinedLead.findUniqueOrThrow({ where: { id: spam.body.lead_id } });
    assert.equal(quarantined.teamId, team.id);
    assert.equal(quarantined.apiKeyId, key.keyId);
    assert.equal(quarantined.emailKey, "x@mailinator.com");
    assert.ok(quarantined.score >= 10);
    const codes = (quarantined.reasons as { code: string }[]).map((reason) => reason.code).sort();
    assert.deepEqual(codes, ["disposable_email", "link_in_name"]);
    assert.equal(quarantined.ip, "198.51.100.7");
    assert.equal(await turn(), turnBefore, "no round-robin turn taken");
    assert.equal(await db().job.count({ where: { teamId: team.id } }), jobsBefore, "no webhook delivery, no email");
    const log = await db().apiRequest.findFirstOrThrow({ where: { leadId: spam.body.lead_id } });
    assert.deepEqual([log.status, log.spam, log.error], [201, "link_in_name disposable_email", null]);
    const { rows } = await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } });
    assert.equal(
      rows.find((row) => row.leadId === spam.body.lead_id)?.spam,
      "link_in_name disposable_email",
      "the key's request log shows why",
    );

    // The next kept lead takes the next number.
    const next = await send(key, { name: "Katherine Johnson", email: "kj@example.com" });
    assert.equal(Number(next.body.lead_id.slice(9)), Number(spam.body.lead_id.slice(9)) + 1);
  });

  test("create_lead with the checks off (a key's default): the same post is a lead", async () => {
    const { team, key } = await setUp(false);
    const answer = await send(key, SPAM);
    assert.equal(answer.status, 201);
    assert.equal(await db().lead.count({ where: { id: answer.body.lead_id, teamId: team.id } }), 1);
    assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 0);
  });

  test("a person's repeat submission never joins a quarantined submission: it makes a lead of its own", async () => {
    const { team, key } = await setUp(true);
    const spam = await send(key, { ...SPAM, email: "ada@example.com" });
    assert.equal((await db().quarantinedLead.findUniqueOrThrow({ where: { id: spam.body.lead_id } })).emailKey, "ada@example.com");
    const real = await send(key, REAL);
    assert.equal(real.status, 201);
    assert.notEqual(real.body.lead_id, spam.body.lead_id);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 1);
  });

  test("an Idempotency-Key retry of a quarantined submission replays its answer and stores nothing more", async () => {
    const { team, key } = await setUp(true);
    const once = await send(key, SPAM, { "idempotency-key": "spam-1" });
    const twice = await send(key, SPAM, { "idempotency-key": "spam-1" });
    assert.deepEqual(twice, once);
    assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 1);
  });
});

describe("a quarantined submission is counted as spam, never as a lead, and never reminded of", () => {
  test("the metric counts it once per reason code, not in leads created; the still-New reminder looks at the kept lead only", async () => {
    const { metrics } = await import("../operations/metrics");
    const { sendNewLeadReminders } = await import("../maintenance/new-lead-reminders");
    const { team, key } = await setUp(true);
    await db().team.update({ where: { id: team.id }, data: { newLeadReminderMinutes: 10 } });
    const count = async () => {
      const quarantined = (await metrics().leadsQuarantined.get()).values;
      const created = (await metrics().leadsCreated.get()).values;
      const byReason = (code: string) => quarantined.find((value) => value.labels.reason === code)?.value ?? 0;
      return {
        link: byReason("link_in_name"),
        disposable: byReason("disposable_email"),
        created: created.find((value) => value.labels.team === team.slug)?.value ?? 0,
      };
    };
    const before = await count();
    await send(key, SPAM);
    await send(key, { ...SPAM, name: "Buy http://cheap.example now", email: "y@mailinator.com" });
    await send(key, REAL);
    const after = await count();
    assert.deepEqual(
      { link: after.link - before.link, disposable: after.disposable - before.disposable, created: after.created - before.created },
      { link: 2, disposable: 2, created: 1 },
    );
    const run = await sendNewLeadReminders(new Date(Date.now() + 24 * 60 * 60 * 1000));
    assert.equal(run.leads, 1, "only the kept lead is looked at");
  });
});

describe("web forms and connections run the checks by default, with the same answer as a kept lead", () => {
  test("a web form: a spam post and a real one get the same status and envelope; only the real one is a lead", async () => {
    const { team, formId } = await newForm({ challenge: false });
    const spam = await post(formId, SPAM);
    const real = await post(formId, REAL);
    assert.deepEqual([spam.status, real.status], [201, 201]);
    const [s, r] = [(await spam.json()) as Body, (await real.json()) as Body];
    assert.deepEqual([s.success, s.message], [r.success, r.message]);
    assert.deepEqual(
      (await db().lead.findMany({ where: { teamId: team.id } })).map((lead) => lead.id),
      [r.lead_id],
    );
    assert.equal((await db().quarantinedLead.findUniqueOrThrow({ where: { id: s.lead_id } })).formId, formId);
  });

  test("a connection: a spam delivery is answered 201 with the envelope, kept in the quarantine, and its retry answered the same", async () => {
    const c = await connect("tally");
    const name = { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: SPAM.name };
    const body = tallyBody([name], "spam1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const first = await deliver(c.token, body, headers);
    const retry = await deliver(c.token, body, headers);
    assert.deepEqual([first.status, retry.status], [201, 200]);
    const answer = (await first.json()) as Body;
    assert.deepEqual([answer.success, answer.message], [true, "Lead created successfully"]);
    assert.equal(((await retry.json()) as Body).lead_id, answer.lead_id);
    assert.equal(await db().lead.count({ where: { teamId: c.team.id } }), 0);
    assert.equal((await db().quarantinedLead.findUniqueOrThrow({ where: { id: answer.lead_id } })).connectionId, c.id);
    // Its log row names the lead id; the log tells it is in the quarantine (not a lead's page).
    const [row] = await db().connectionDelivery.findMany({ where: { connectionId: c.id } });
    const { quarantinedAmong } = await import("../spam/quarantine-store");
    assert.deepEqual([...(await quarantinedAmong(c.team.id, [row!.leadId, null, "CRM-LEAD-99999"]))], [answer.lead_id]);
    assert.equal((await quarantinedAmong("another-team", [row!.leadId])).size, 0);
  });
});

describe('"Not spam" releases a quarantined submission into the list as if it had just arrived', () => {
  test("the same lead id, an owner by the rules (a turn taken), its lead.created delivery; the quarantine row gone; audited; twice: refused", async () => {
    const { team, owner, admin, member, key, turn } = await setUp(true);
    const { releaseQuarantined } = await import("../spam/quarantine-release");
    const spam = await send(key, { ...SPAM, organization: "Quinn Ltd", extra: "kept" });
    const turnBefore = await turn();
    const released = await releaseQuarantined({ teamId: team.id, id: spam.body.lead_id, actor: actorOf(owner) });
    assert.deepEqual(released, { ok: true, leadId: spam.body.lead_id });

    const lead = await db().lead.findUniqueOrThrow({ where: { id: spam.body.lead_id } });
    assert.deepEqual([lead.teamId, lead.apiKeyId, lead.firstName, lead.organization], [team.id, key.keyId, "Cheap", "Quinn Ltd"]);
    assert.deepEqual(lead.extraFields, { extra: "kept" });
    assert.ok([admin.id, member.id].includes(lead.ownerId!), "the round robin gave it an owner");
    assert.notEqual(await turn(), turnBefore);
    assert.equal(await db().job.count({ where: { leadId: lead.id, eventType: "lead.created" } }), 1);
    assert.equal(await db().leadSubmission.count({ where: { leadId: lead.id } }), 1, "its first submission");
    assert.equal(await db().quarantinedLead.count({ where: { id: lead.id } }), 0);
    assert.equal((await db().apiRequest.findFirstOrThrow({ where: { leadId: lead.id } })).spam, null, "the log names the lead now");
    const event = await db().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "lead.released_from_spam" } });
    assert.equal(event.targetId, lead.id);

    const again = await releaseQuarantined({ teamId: team.id, id: spam.body.lead_id, actor: actorOf(owner) });
    assert.equal(again.ok, false);
    assert.equal(await db().lead.count({ where: { teamId: team.id, id: lead.id } }), 1);
  });

  test("another team's quarantined submission is not released", async () => {
    const { key } = await setUp(true);
    const other = await setUp(true);
    const { releaseQuarantined } = await import("../spam/quarantine-release");
    const spam = await send(key, SPAM);
    const refused = await releaseQuarantined({ teamId: other.team.id, id: spam.body.lead_id, actor: actorOf(other.owner) });
    assert.equal(refused.ok, false);
    assert.equal(await db().quarantinedLead.count({ where: { id: spam.body.lead_id } }), 1);
  });
});

test("a web form's quarantined submission whose source was deleted meanwhile is released under the team's API source", async () => {
  const { addLeadSource, deleteLeadSource } = await import("../teams/lead-sources");
  const { releaseQuarantined } = await import("../spam/quarantine-release");
  const { team, formId } = await newForm({ challenge: false });
  const source = await addLeadSource(team.id, "Landing page");
  await db().webForm.update({ where: { id: formId }, data: { sourceId: source.id } });
  const spam = (await (await post(formId, SPAM)).json()) as Body;
  assert.equal(await deleteLeadSource({ teamId: team.id, sourceId: source.id }), "deleted");
  const released = await releaseQuarantined({ teamId: team.id, id: spam.lead_id, actor: { userId: null, ip: null, via: "cli" } });
  assert.deepEqual(released, { ok: true, leadId: spam.lead_id });
  const lead = await db().lead.findUniqueOrThrow({ where: { id: spam.lead_id }, include: { source: true } });
  assert.deepEqual([lead.source.name, lead.formId], ["API", formId]);
});
