import assert from "node:assert/strict";
import { mock, test } from "node:test";
import fc from "fast-check";
import { startSmtpSink } from "./smtp-sink.fixtures";

// Assignment emails (assignment-email.ts, docs/routing.md "Emails") through a local SMTP sink:
// one to the owner the rules give a new lead (queued in the lead's transaction, with no
// statement more), one per lead an admin assigns to someone else; none for a lead taken for
// oneself, an unassigned lead, a member who turned them off, or with email off. What is
// sent is checked again at send time.

const received = await startSmtpSink();
const { useTestDatabase } = await import("../../test/support/test-database");
const database = await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { Dispatcher } = await import("../jobs/dispatcher");
const { assignLeads } = await import("../leads/lead-ownership");
const { actorOf, lead, makeTeam } = await import("../leads/lead-ownership.fixtures");
const { writeLead } = await import("../leads/lead-writer");
const { leadFieldsOf, storableOn } = await import("../leads/lead-writer.fixtures");
const { saveRule } = await import("../routing/assignment-rules");
const { ASSIGNED_EMAIL, assignmentMessage } = await import("./assignment-email");
const { emailHandler } = await import("./new-lead-email");
const { setAssignmentEmails } = await import("./notification-changes");

mock.method(process.stderr, "write", () => true);

const BASE_URL = "https://leads.example.test";
const REASON = (team: string) =>
  `You get this email because leads of ${team} are assigned to you; turn it off in Team Settings → General → Notifications.`;

/** Sends every due email job; returns the messages the sink got meanwhile. */
async function deliver() {
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

/** A team (owner, admin, two members) whose one rule gives new leads (those that meet `conditions`) to `member`, and an API key. */
async function routedTeam(conditions: { field: string; op: "equals"; values: string[] }[] = []) {
  const people = await makeTeam();
  const saved = await saveRule({
    teamId: people.team.id,
    input: { name: "Everyone's", enabled: true, conditions, mode: "member", userIds: [people.member.id], fallbackUserId: null },
    actor: actorOf(people.owner),
  });
  assert.ok(saved.ok);
  const key = await createApiKey({ teamId: people.team.id, description: "Website" });
  let n = 0;
  const create = async (body: Record<string, string>) => {
    const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
      body: JSON.stringify(body),
    });
    const context = { requestId: `assign-${++n}`, ip: "203.0.113.7" };
    const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
    assert.equal(response.status, 201);
    return ((await response.json()) as { lead_id: string }).lead_id;
  };
  return { ...people, key, create };
}

const assignmentJobs = (teamId: string) => db().job.findMany({ where: { teamId, eventType: ASSIGNED_EMAIL } });

test("the owner the rules give a new lead gets one email: the link first, no secret, the reason last", async () => {
  const { team, member, key, create } = await routedTeam();
  const leadId = await create({ name: "Grace Hopper", organization: "US Navy", email: "grace@navy.example" });
  assert.equal((await db().lead.findUniqueOrThrow({ where: { id: leadId } })).ownerId, member.id);
  assert.equal((await assignmentJobs(team.id)).length, 1, "one job, in the lead's transaction");

  const mails = await deliver();
  assert.equal(mails.length, 1);
  const [mail] = mails;
  assert.deepEqual(mail!.to, [member.email]);
  assert.equal(mail!.subject, "New lead assigned to you: Grace Hopper (US Navy)");
  const link = `${BASE_URL}/t/${team.slug}/leads/${leadId}`;
  assert.equal(mail!.body.match(/https?:\/\/\S+/)?.[0], link, "the first link is the lead's");
  const lines = mail!.body.trimEnd().split(/\r?\n/);
  assert.ok(lines.includes("Name: Grace Hopper") && lines.includes("Organization: US Navy") && lines.includes("Email: grace@navy.example"));
  assert.equal(lines.at(-1), REASON(team.name));
  assert.ok(!mail!.body.includes(key.secret) && !mail!.body.includes(key.keyId), "no key or secret");
  assert.deepEqual(await deliver(), [], "once");
});

test("no email for an unassigned lead, nor for a member who turned them off; turned back on, the next is sent", async () => {
  const { team, member, create } = await routedTeam([{ field: "utm_source", op: "equals", values: ["ads"] }]);
  const unassigned = await create({ name: "Nobody's Lead" });
  assert.equal((await db().lead.findUniqueOrThrow({ where: { id: unassigned } })).ownerId, null);
  assert.equal((await assignmentJobs(team.id)).length, 0);

  // The team's routing is cached with the member's choice; turning it off is seen by the very next lead.
  await create({ name: "Warm Up", utm_source: "ads" });
  assert.equal((await assignmentJobs(team.id)).length, 1);
  assert.equal((await deliver()).length, 1);
  assert.ok(await setAssignmentEmails({ userId: member.id, teamId: team.id, enabled: false, actor: actorOf(member) }));
  const quiet = await create({ name: "Quiet Lead", utm_source: "ads" });
  assert.equal((await db().lead.findUniqueOrThrow({ where: { id: quiet } })).ownerId, member.id);
  assert.equal((await assignmentJobs(team.id)).length, 1, "no job for the opted-out owner");
  assert.deepEqual(await deliver(), []);

  await setAssignmentEmails({ userId: member.id, teamId: team.id, enabled: true, actor: actorOf(member) });
  await create({ name: "Loud Lead", utm_source: "ads" });
  assert.deepEqual(
    (await deliver()).map((mail) => [mail.to[0], mail.subject]),
    [[member.email, "New lead assigned to you: Loud Lead (Loud Lead)"]],
  );
});

test("with email off the lead writer queues nothing for the owner: the hot path's outbox is unchanged", async () => {
  const { team, member } = await routedTeam();
  // Any lead (the one rule has no condition) the database can store.
  const [fields] = fc.sample(leadFieldsOf(team.id).filter(storableOn(database.provider)), 1);
  const write = (emails: boolean) =>
    writeLead({
      lead: { ...fields!, firstName: "Ada" },
      source: { requested: undefined },
      events: { origin: { apiKeyId: null, formId: null }, emails },
      now: new Date(),
    });
  const off = await write(false);
  assert.equal(off.ownerId, member.id);
  assert.equal(off.jobs, 0);
  const on = await write(true);
  assert.equal(on.ownerId, member.id);
  assert.equal(on.jobs, 1);
  await deliver();
});

test("a lead an admin assigns to a member: one email per lead; taking a lead oneself, or assigning to oneself, none", async () => {
  const { team, owner, admin, member, other } = await makeTeam();
  const [a, b, c, mine, own] = [
    await lead(team.id, "Bulk A"),
    await lead(team.id, "Bulk B"),
    await lead(team.id),
    await lead(team.id),
    await lead(team.id),
  ];
  assert.ok((await assignLeads({ teamId: team.id, leadIds: [a, b], ownerId: member.id, actor: actorOf(admin) })).ok);
  assert.ok((await assignLeads({ teamId: team.id, leadIds: [mine], ownerId: other.id, actor: actorOf(other) })).ok);
  assert.ok((await assignLeads({ teamId: team.id, leadIds: [own], ownerId: admin.id, actor: actorOf(admin) })).ok);
  // Already theirs: nothing changes, nothing is sent.
  assert.deepEqual(await assignLeads({ teamId: team.id, leadIds: [a], ownerId: member.id, actor: actorOf(admin) }), {
    ok: true,
    changed: [],
  });
  const mails = await deliver();
  assert.deepEqual(mails.map((mail) => [mail.to[0], mail.subject]).sort(), [
    [member.email, "New lead assigned to you: Bulk A (Bulk A)"],
    [member.email, "New lead assigned to you: Bulk B (Bulk B)"],
  ]);

  // Opted out: none. Reassigned before it is sent: dropped at send time, the new owner's sent.
  await setAssignmentEmails({ userId: other.id, teamId: team.id, enabled: false, actor: actorOf(other) });
  await assignLeads({ teamId: team.id, leadIds: [c], ownerId: other.id, actor: actorOf(admin) });
  assert.equal((await assignmentJobs(team.id)).filter((job) => job.payload.includes(c)).length, 0);
  await assignLeads({ teamId: team.id, leadIds: [c], ownerId: member.id, actor: actorOf(admin) });
  await assignLeads({ teamId: team.id, leadIds: [c], ownerId: owner.id, actor: actorOf(admin) });
  assert.deepEqual(
    (await deliver()).map((mail) => [mail.to[0], mail.subject]),
    [[owner.email, "New lead assigned to you: Ada Lovelace (Ada Lovelace)"]],
  );
  const dropped = await db().job.findMany({ where: { teamId: team.id, eventType: ASSIGNED_EMAIL, state: { not: "delivered" } } });
  assert.deepEqual(
    dropped.map((job) => job.lastError),
    ["The lead is no longer assigned to the member"],
  );
});

test("the message: every text the lead's sender chose on one line, the lead's link first, whatever the text", () => {
  const text = fc.string({
    unit: fc.constantFrom("a", " ", "\n", "\r", "\u2028", "\u0085", "https://evil.example/x", "(", "é"),
    maxLength: 30,
  });
  fc.assert(
    fc.property(
      text,
      text,
      fc.option(text, { nil: null }),
      text,
      text,
      fc.boolean(),
      (name, organization, email, source, teamName, reminder) => {
        const payload = reminder
          ? ({ kind: "reminder", userId: "u", leadId: "CRM-LEAD-00042", minutes: 60, unassigned: false } as const)
          : ({ kind: "assigned", userId: "u", leadId: "CRM-LEAD-00042" } as const);
        const message = assignmentMessage(
          payload,
          { slug: "acme", name: teamName },
          { name, organization, email, source, status: "new", ownerId: "u" },
          BASE_URL,
        );
        assert.ok(!/[\r\n\u2028\u0085]/.test(message.subject));
        const lines = message.text.split("\n");
        assert.equal(lines.length, 6 + (/[^\s\u0085]/.test(organization) ? 1 : 0) + (email ? 1 : 0), "one line per field");
        assert.ok(lines[0]!.endsWith(`Open it: ${BASE_URL}/t/acme/leads/CRM-LEAD-00042`));
        assert.equal(message.text.match(/https?:\/\/\S+/)?.[0], `${BASE_URL}/t/acme/leads/CRM-LEAD-00042`);
        assert.ok(lines.at(-1)!.startsWith("You get this email because"));
      },
    ),
  );
});
