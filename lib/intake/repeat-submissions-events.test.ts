import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { startSmtpSink } from "../notifications/smtp-sink.fixtures";

// What a repeat submission that joins a lead sets off (issue 41, step 3; docs/leads.md
// "Repeat submissions", docs/webhooks.md "lead.submitted"), queued in its own transaction:
// a lead.submitted delivery to each endpoint subscribed to it (none to one that only takes
// lead.created), and "Ada Lovelace submitted again" by email to the lead's owner with what
// is new, or, when it has no owner, to the members who get new-lead emails. Through a local
// SMTP sink, on SQLite and PostgreSQL.

const received = await startSmtpSink();
const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { Dispatcher } = await import("../jobs/dispatcher");
const { makeTeam } = await import("../leads/lead-ownership.fixtures");
const { emailHandler } = await import("../notifications/new-lead-email");
const { leadSubmittedEventSchema } = await import("../webhooks/lead-submitted-event");

mock.method(process.stderr, "write", () => true);

const BASE_URL = "https://leads.example.test";

async function deliverEmails() {
  const before = received.length;
  const dispatcher = new Dispatcher({
    handlers: { email: emailHandler({ baseUrl: BASE_URL }) },
    now: () => new Date(Date.now() + 1_000),
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  while ((await dispatcher.runOnce()) > 0);
  return received.slice(before);
}

async function setUp() {
  const people = await makeTeam();
  const key = await createApiKey({ teamId: people.team.id, description: "Website" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { repeats: "add" } });
  let n = 0;
  const send = async (body: Record<string, string>) => {
    const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
      body: JSON.stringify(body),
    });
    const context = { requestId: `events-${++n}`, ip: "198.51.100.2" };
    const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
    return { status: response.status, ...((await response.json()) as { lead_id: string }) };
  };
  const endpoint = (events: string) =>
    db().webhookEndpoint.create({ data: { teamId: people.team.id, url: "https://hooks.example.test/x", events, secretCiphertext: "x" } });
  return { ...people, key, send, endpoint };
}

test("lead.submitted goes to the endpoints subscribed to it, with the lead as filled, the submission and what it filled", async () => {
  const { team, send, endpoint } = await setUp();
  const submitted = await endpoint("lead.created lead.submitted");
  const createdOnly = await endpoint("lead.created");
  const first = await send({ name: "Ada", email: "ada@example.com", job_title: "Countess", colour: "green" });
  const again = await send({
    name: "Ada Lovelace",
    email: "ADA@example.com",
    job_title: "Programmer",
    colour: "blue",
    engine: "analytical",
  });
  assert.deepEqual([first.status, again.status], [201, 200]);
  const jobs = await db().job.findMany({ where: { teamId: team.id, eventType: "lead.submitted" } });
  assert.deepEqual(
    jobs.map((job) => job.endpointId),
    [submitted.id],
    "one delivery, to the endpoint that takes lead.submitted",
  );
  assert.equal(
    await db().job.count({ where: { teamId: team.id, eventType: "lead.created", endpointId: createdOnly.id } }),
    1,
    "its lead.created of the first",
  );
  const event = leadSubmittedEventSchema.parse(JSON.parse(jobs[0]!.payload));
  const submission = await db().leadSubmission.findFirstOrThrow({ where: { leadId: first.lead_id, NOT: { id: `sub_${first.lead_id}` } } });
  assert.deepEqual(event.data.lead, {
    id: first.lead_id,
    first_name: "Ada",
    last_name: "Lovelace",
    email: "ada@example.com",
    phone: null,
    mobile_no: null,
    organization: "Ada",
    status: "new",
  });
  assert.deepEqual(event.data.submission, {
    id: submission.id,
    channel: "api",
    api_key_id: submission.apiKeyId,
    form_id: null,
    connection_id: null,
    fields: submission.fields,
    skipped: [],
  });
  assert.deepEqual(event.data.filled, ["last_name", "extra_fields.engine"]);
  assert.equal(event.data.team.id, team.id);
});

test('"submitted again" by email: to the owner, with what it filled and what the lead kept; to new-lead subscribers when it has none', async () => {
  const { team, send, member, admin, other } = await setUp();
  const first = await send({ name: "Ada Lovelace", email: "ada@example.com", job_title: "Countess", colour: "green" });
  await db().lead.update({ where: { id: first.lead_id }, data: { ownerId: member.id, assignedAt: new Date() } });
  await deliverEmails();
  await send({ name: "Ada Lovelace", email: "ada@example.com", job_title: "Programmer", colour: "blue", territory: "London" });
  const [mail, ...more] = await deliverEmails();
  assert.equal(more.length, 0, "one email");
  assert.deepEqual(mail!.to, [member.email]);
  assert.equal(mail!.subject, "Ada Lovelace submitted again");
  assert.match(mail!.body, new RegExp(`Open it: ${BASE_URL}/t/${team.slug}/leads/${first.lead_id}`));
  assert.match(mail!.body, /territory: London \(filled in\)/);
  assert.match(mail!.body, /job_title: Programmer \(the lead keeps its own\)/);
  assert.match(mail!.body, /colour: blue \(the lead keeps its own\)/);

  // No owner: the members who asked for new-lead emails.
  await db().membership.updateMany({ where: { teamId: team.id, userId: { in: [admin.id, other.id] } }, data: { notifyNewLeads: true } });
  const unowned = await send({ name: "Grace Hopper", email: "grace@example.com" });
  await deliverEmails();
  const again = await send({ name: "Grace Hopper", email: "grace@example.com" });
  assert.equal(again.lead_id, unowned.lead_id);
  const sent = await deliverEmails();
  assert.deepEqual(sent.map((m) => m.to[0]).sort(), [admin.email, other.email].sort());
  assert.ok(sent.every((m) => m.subject === "Grace Hopper submitted again"));
  assert.ok(sent.every((m) => /It sent nothing the lead does not already hold\./.test(m.body)));
});

test("a returning lead with no owner goes through the rules again: the rule's member gets it and its email; an owned lead takes no turn", async () => {
  const { team, send, owner, member, admin } = await setUp();
  const first = await send({ name: "Ada Lovelace", email: "ada@example.com" });
  const { saveRule } = await import("../routing/assignment-rules");
  const { actorOf } = await import("../leads/lead-ownership.fixtures");
  // From now on, leads from Google go to the member (the first lead came before the rule, and has no utm_source).
  const saved = await saveRule({
    teamId: team.id,
    actor: actorOf(owner),
    input: {
      name: "Google",
      enabled: true,
      conditions: [{ field: "utm_source", op: "equals", values: ["google"] }],
      mode: "member",
      userIds: [member.id],
      fallbackUserId: null,
    },
  });
  assert.ok(saved.ok);
  await deliverEmails();
  const again = await send({ name: "Ada Lovelace", email: "ada@example.com", utm_source: "google" });
  assert.deepEqual([again.status, again.lead_id], [200, first.lead_id]);
  const lead = await db().lead.findUniqueOrThrow({ where: { id: first.lead_id } });
  assert.equal(lead.ownerId, member.id, "the rule matched the lead as filled (its utm_source)");
  assert.ok(lead.assignedAt);
  const [mail, ...more] = await deliverEmails();
  assert.equal(more.length, 0);
  assert.deepEqual([mail!.to, mail!.subject], [[member.email], "Ada Lovelace submitted again"]);

  // An owned lead keeps its owner, whatever the rules say now.
  await db().lead.update({ where: { id: first.lead_id }, data: { ownerId: admin.id } });
  await send({ name: "Ada Lovelace", email: "ada@example.com", utm_source: "google" });
  assert.equal((await db().lead.findUniqueOrThrow({ where: { id: first.lead_id } })).ownerId, admin.id);
});
