import assert from "node:assert/strict";
import { after, mock, test } from "node:test";
import { startChatFake, type ChatFake } from "../test-support/chat-fakes";
import type { ContactField } from "./chat-destination-store";

// Chat messages through the jobs runner to each platform's local fake (docs/notifications.md
// "Delivery"): a new lead posted to all five, each body one its platform accepts; an
// assignment's mention; the one-a-second pacing; a 429's Retry-After; a 5xx retried; a 404
// disabling the destination and telling the admins; a quarantined submission posting
// nothing; a reminder of a lead still New; the URL's secret never in a log line, audit row,
// job or delivery log.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
const logged: string[] = [];
mock.method(process.stderr, "write", (chunk: unknown) => (logged.push(String(chunk)), true));
// Info lines go to stdout, where the test runner's own report goes too: kept, and passed on.
const toStdout = process.stdout.write.bind(process.stdout);
mock.method(process.stdout, "write", (chunk: string | Uint8Array) => (logged.push(String(chunk)), toStdout(chunk)));

const { useTestDatabase } = await import("../../test/support/test-database");
const database = await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { Dispatcher } = await import("../jobs/dispatcher");
const { assignLeads } = await import("../leads/lead-ownership");
const { sendNewLeadReminders } = await import("../maintenance/new-lead-reminders");
const { writeNewLeadReminder } = await import("../notifications/new-lead-reminder-store");
const { addSpamListValues } = await import("../spam/spam-list-changes");
const { addMember, createTeam } = await import("../teams/team-store");
const { createUser } = await import("../users/user-store");
const { chatHandler, retryAfterOf } = await import("./chat-delivery");
const { addChatDestination, sendChatTestMessage } = await import("./chat-destination-changes");
const { ANY_LEAD } = await import("./new-lead-filter");

const fakes: ChatFake[] = [];
after(() => Promise.all(fakes.map((fake) => fake.close())));
async function fake(platform: ChatFake["platform"]) {
  const started = await startChatFake(platform);
  fakes.push(started);
  return started;
}

const BASE = "https://leads.example.test";
// The dispatcher's clock, an hour ahead of the real one (which stamps the jobs' runAt): every
// job queued during the file is due, and the test moves it on. (A fixed date here made every
// job "not yet due" once the real clock passed it.)
let clock = Date.now() + 60 * 60 * 1000;
const dispatcher = new Dispatcher({
  handlers: { chat: chatHandler({ baseUrl: BASE, allowPrivate: true }) },
  now: () => new Date(clock),
  random: () => 0.5,
  leaseMs: 60_000,
  retryBaseMs: 1_000,
});

const settings = {
  postNewLeads: true,
  newLeadFilter: ANY_LEAD,
  postAssignments: true,
  postReminders: false,
  postRepeats: true,
  includeFields: [] as ContactField[],
};
const actor = { userId: null, ip: null, via: "cli" as const };

async function makeTeam(slug: string) {
  const team = await createTeam({ slug, name: slug });
  const owner = await createUser({ email: `owner@${slug}.test`, password: "a-long-password-123" });
  const admin = await createUser({ email: `admin@${slug}.test`, password: "a-long-password-123" });
  const member = await createUser({ email: `member@${slug}.test`, password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: owner.id, role: "owner" });
  await addMember({ teamId: team.id, userId: admin.id, role: "admin" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });
  const key = await createApiKey({ teamId: team.id, description: "Website", spamChecks: true });
  return { team, owner, admin, member, key };
}

async function postLead(key: { keyId: string; secret: string }, lead: Record<string, unknown>, status = 201): Promise<string> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify(lead),
  });
  const context = { requestId: `chat-${Math.random()}`, ip: "203.0.113.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  assert.equal(response.status, status);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

async function add(teamId: string, chat: ChatFake, extra: Partial<typeof settings> & { name?: string } = {}) {
  const added = await addChatDestination({
    teamId,
    url: chat.url,
    platform: chat.platform,
    settings: { name: chat.platform, ...settings, ...extra },
    actor,
  });
  assert.ok(added.ok, JSON.stringify(added));
  return added.id;
}

const chatJobs = (teamId: string) => db().job.findMany({ where: { teamId, kind: "chat" }, orderBy: { createdAt: "asc" } });

test("a new lead is posted to every platform within its shape, linking to the lead; the URL's secret is nowhere else", async () => {
  const { team, key } = await makeTeam("chat-all");
  const platforms = await Promise.all((["slack", "teams", "discord", "google-chat", "slack-compatible"] as const).map(fake));
  for (const chat of platforms) await add(team.id, chat);
  const leadId = await postLead(key, { name: "Grace <!channel> Hopper", organization: "US Navy", email: "grace@navy.example" });
  assert.equal(await dispatcher.runOnce(), 5);
  for (const chat of platforms) {
    assert.equal(chat.received.length, 1, chat.platform);
    const [got] = chat.received;
    assert.deepEqual(got!.problems, [], chat.platform);
    assert.ok(got!.status >= 200 && got!.status < 300, chat.platform);
    const body = JSON.stringify(got!.body);
    assert.ok(body.includes(`${BASE}/t/chat-all/leads/${leadId}`), `${chat.platform}: links to the lead`);
    assert.equal(body.includes("grace@navy.example"), false, `${chat.platform}: no email unless ticked`);
  }
  const deliveries = await db().chatDelivery.findMany({ where: { destination: { teamId: team.id } } });
  assert.equal(deliveries.length, 5);
  assert.ok(deliveries.every((row) => row.ok && row.event === "lead.created" && row.leadId === leadId));
  const audits = await db().auditEvent.findMany({ where: { teamId: team.id } });
  const jobs = await chatJobs(team.id);
  for (const chat of platforms) {
    for (const [where, text] of [
      ["log", logged.join("")],
      ["audit", JSON.stringify(audits)],
      ["jobs", JSON.stringify(jobs)],
      ["delivery log", JSON.stringify(deliveries)],
    ] as const) {
      assert.equal(text.includes(chat.secret), false, `${chat.platform}'s secret in the ${where}`);
    }
    assert.equal(database.storedBytes().includes(chat.secret), false, `${chat.platform}'s secret stored in the clear`);
  }
});

test("extra fields ticked for the chat are posted as sent, one named __proto__ too (spec 2.2)", async () => {
  const { team, key } = await makeTeam("chat-extra");
  const slack = await fake("slack");
  await add(team.id, slack, { includeFields: ["extra"] });
  // JSON.parse makes "__proto__" an own field, as the intake's body parser does with a sender's JSON.
  await postLead(key, JSON.parse('{"name": "Ada Lovelace", "__proto__": "as sent", "budget": "10k"}') as Record<string, unknown>);
  assert.equal(await dispatcher.runOnce(), 1);
  const [got] = slack.received;
  assert.deepEqual(got!.problems, []);
  const body = JSON.stringify(got!.body);
  for (const text of ["__proto__", "as sent", "budget", "10k"]) assert.ok(body.includes(text), `${text} in ${body}`);
});

test("at most one message a second per destination: the rest wait for their slot, none dropped or counted as tried", async () => {
  const { team, key } = await makeTeam("chat-pace");
  const slack = await fake("slack");
  await add(team.id, slack);
  for (const name of ["One", "Two", "Three"]) await postLead(key, { name, organization: "Pace" });
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 1);
  const waiting = (await chatJobs(team.id)).filter((job) => job.state === "pending");
  assert.equal(waiting.length, 2);
  assert.ok(
    waiting.every((job) => job.attempts === 0 && job.runAt.getTime() === clock + 1000),
    "put off to the next slot, uncounted",
  );
  clock += 1000;
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 2);
  clock += 1000;
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 3);
  const sent = slack.received.map((got) => JSON.stringify(got.body));
  assert.deepEqual(
    ["One", "Two", "Three"].map((name) => sent.filter((body) => body.includes(`New lead: ${name}`)).length),
    [1, 1, 1],
  );
  clock += 1000;
});

test("a 429 is retried no sooner than its Retry-After; a 5xx on the jobs' schedule; then it is posted", async () => {
  const { team, key } = await makeTeam("chat-retry");
  const discord = await fake("discord");
  await add(team.id, discord);
  discord.answers.push({ status: 429, retryAfterSeconds: 30 }, { status: 502 });
  await postLead(key, { name: "Retry", organization: "Later" });
  await dispatcher.runOnce();
  let [job] = await chatJobs(team.id);
  assert.equal(job!.state, "pending");
  assert.ok(job!.runAt.getTime() >= clock + 30_000, "not before Retry-After");
  clock = job!.runAt.getTime();
  await dispatcher.runOnce();
  [job] = await chatJobs(team.id);
  assert.equal(job!.state, "pending", "a 502 is retried");
  clock = job!.runAt.getTime() + 1000;
  await dispatcher.runOnce();
  [job] = await chatJobs(team.id);
  assert.equal(job!.state, "delivered");
  assert.deepEqual(
    discord.received.map((got) => got.status),
    [429, 502, 204],
  );
  const log = await db().chatDelivery.findMany({ where: { destination: { teamId: team.id } }, orderBy: { id: "asc" } });
  assert.deepEqual(
    log.map((row) => [row.statusCode, row.ok]),
    [
      [429, false],
      [502, false],
      [204, true],
    ],
  );
  assert.match(log[0]!.answer ?? "", /retry_after/, "the platform's answer is logged");
  assert.equal(
    (await db().chatDestination.findFirstOrThrow({ where: { teamId: team.id } })).failingSince,
    null,
    "a success clears failing",
  );
  clock += 1000;
});

test("Retry-After in seconds or as a date, else Discord's JSON retry_after", () => {
  const now = new Date("2026-12-03T10:00:00Z");
  assert.equal(retryAfterOf("5", null, now)?.toISOString(), "2026-12-03T10:00:05.000Z");
  assert.equal(retryAfterOf("Thu, 03 Dec 2026 10:01:00 GMT", null, now)?.toISOString(), "2026-12-03T10:01:00.000Z");
  assert.equal(retryAfterOf(null, '{"retry_after": 1.25, "global": false}', now)?.toISOString(), "2026-12-03T10:00:01.250Z");
  assert.equal(retryAfterOf(null, "busy", now), null);
});

test("a 404 (the webhook was deleted in the chat) disables the destination at once and emails the owners and admins", async () => {
  const { team, key } = await makeTeam("chat-gone");
  const gchat = await fake("google-chat");
  const id = await add(team.id, gchat, { name: "Sales space" });
  gchat.answers.push({ status: 404 });
  await postLead(key, { name: "Gone", organization: "Away" });
  await dispatcher.runOnce();
  const destination = await db().chatDestination.findUniqueOrThrow({ where: { id } });
  assert.deepEqual([destination.enabled, destination.disabledReason], [false, "gone"]);
  assert.equal((await chatJobs(team.id))[0]!.state, "cancelled", "not retried");
  const emails = await db().job.findMany({ where: { teamId: team.id, kind: "email", eventType: "chat.destination_disabled" } });
  assert.equal(emails.length, 2, "the owner and the admin");
  assert.ok(emails.every((job) => job.payload.includes("Sales space") && !job.payload.includes(gchat.secret)));
  await postLead(key, { name: "After", organization: "Away" });
  assert.equal((await chatJobs(team.id)).length, 1, "a disabled destination gets nothing more");
  clock += 1000;
});

test("an assignment mentions the owner by the Slack id on their account; a test message is posted", async () => {
  const { team, key, admin, member } = await makeTeam("chat-assign");
  const slack = await fake("slack");
  const id = await add(team.id, slack, { postNewLeads: false });
  await db().user.update({ where: { id: member.id }, data: { slackUserId: "U012AB3CD" } });
  const leadId = await postLead(key, { name: "Assign Me", organization: "Owners" });
  assert.equal((await chatJobs(team.id)).length, 0, "new leads are not posted here");
  const assigned = await assignLeads({
    teamId: team.id,
    leadIds: [leadId],
    ownerId: member.id,
    actor: { userId: admin.id, ip: null, via: "web" },
  });
  assert.ok(assigned.ok);
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 1);
  assert.deepEqual(slack.received[0]!.problems, []);
  const body = JSON.stringify(slack.received[0]!.body);
  assert.ok(body.includes("Assigned to <@U012AB3CD>"), body);
  assert.ok(body.includes("Lead assigned: Assign Me"));
  clock += 1000;
  assert.ok(await sendChatTestMessage({ id, teamId: team.id, teamSlug: "chat-assign", teamName: "Assign team", actor }));
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 2);
  assert.ok(JSON.stringify(slack.received[1]!.body).includes("Test message from Assign team"));
  clock += 1000;
});

test("a quarantined submission posts nothing", async () => {
  const { team, key } = await makeTeam("chat-spam");
  const slack = await fake("slack");
  await add(team.id, slack);
  const blocked = await addSpamListValues({ teamId: team.id, role: "owner", list: "blocked_email", text: "bot@spam.example", actor });
  assert.ok(blocked.ok, JSON.stringify(blocked));
  await postLead(key, { name: "Spam Bot", organization: "Spam", email: "bot@spam.example" });
  assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 1);
  assert.equal((await chatJobs(team.id)).length, 0);
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 0);
});

test("a repeat submission is posted to every platform within its shape: submitted again, from where, its owner mentioned, the link", async () => {
  const { team, key, admin, member } = await makeTeam("chat-repeat");
  const repeatKey = await createApiKey({ teamId: team.id, description: "Landing page", repeats: "add", spamChecks: true });
  const platforms = await Promise.all((["slack", "teams", "discord", "google-chat", "slack-compatible"] as const).map(fake));
  for (const chat of platforms) await add(team.id, chat, { postNewLeads: false, postAssignments: false });
  await db().user.update({
    where: { id: member.id },
    data: { name: "Bob Owner", slackUserId: "U012AB3CD", discordUserId: "123456789012345678" },
  });
  const leadId = await postLead(key, { name: "Grace Hopper", organization: "US Navy & Reserve", email: "grace@navy.example" });
  const assigned = await assignLeads({
    teamId: team.id,
    leadIds: [leadId],
    ownerId: member.id,
    actor: { userId: admin.id, ip: null, via: "web" },
  });
  assert.ok(assigned.ok, JSON.stringify(assigned));
  assert.equal((await chatJobs(team.id)).length, 0, "neither new leads nor assignments are posted here");
  const again = await postLead(repeatKey, { name: "Grace Hopper", email: "GRACE@navy.example", phone: "+1 202 555 0100" }, 200);
  assert.equal(again, leadId, "the repeat joined the person's lead");
  const jobs = await chatJobs(team.id);
  assert.deepEqual(
    jobs.map((job) => [job.eventType, job.leadId]),
    platforms.map(() => ["lead.submitted", leadId]),
    "queued with the repeat's write, one per destination",
  );
  assert.equal(await dispatcher.runOnce(), 5);
  for (const chat of platforms) {
    assert.equal(chat.received.length, 1, chat.platform);
    const [got] = chat.received;
    assert.deepEqual(got!.problems, [], chat.platform);
    const body = JSON.stringify(got!.body);
    assert.ok(body.includes("Submitted again"), `${chat.platform}: says the person submitted again`);
    assert.ok(body.includes("Lead created"), `${chat.platform}: how long since the lead was created`);
    assert.ok(body.includes("API"), `${chat.platform}: where the submission came from`);
    assert.ok(body.includes("Bob Owner"), `${chat.platform}: its owner`);
    assert.ok(body.includes(`${BASE}/t/chat-repeat/leads/${leadId}`), `${chat.platform}: links to the lead`);
    assert.equal(body.includes("grace@navy.example"), false, `${chat.platform}: no email unless ticked`);
    // Teams' TextRuns are never Markdown: an & is text there as it is.
    if (chat.platform !== "teams") assert.equal(body.includes("Navy & Reserve"), false, `${chat.platform}: the organization is escaped`);
  }
  const [slack, , discord] = platforms;
  assert.ok(JSON.stringify(slack!.received[0]!.body).includes("Owner: <@U012AB3CD>"), "Slack mentions the owner");
  assert.deepEqual((discord!.received[0]!.body as { allowed_mentions: unknown }).allowed_mentions, {
    parse: [],
    users: ["123456789012345678"],
  });
  const deliveries = await db().chatDelivery.findMany({ where: { destination: { teamId: team.id } } });
  assert.ok(deliveries.length === 5 && deliveries.every((row) => row.ok && row.event === "lead.submitted" && row.leadId === leadId));
  clock += 1000;
});

test("the new-lead conditions apply to new leads and repeats alike: each destination posts only what matches", async () => {
  const { team } = await makeTeam("chat-conditions");
  const formsKey = await createApiKey({ teamId: team.id, description: "Forms", repeats: "add", spamChecks: true });
  const partnerKey = await createApiKey({ teamId: team.id, description: "Partner", repeats: "add", spamChecks: true });
  const forms = await fake("slack");
  const partner = await fake("discord");
  const only = (apiKeyId: string) => ({ ...ANY_LEAD, apiKeyIds: [apiKeyId] });
  await add(team.id, forms, { name: "forms", newLeadFilter: only(formsKey.keyId) });
  await add(team.id, partner, { name: "partner", newLeadFilter: only(partnerKey.keyId) });
  const leadId = await postLead(formsKey, { name: "Matched Once", email: "once@match.example" });
  await postLead(formsKey, { name: "Matched Once", email: "once@match.example" }, 200);
  await postLead(partnerKey, { name: "Matched Once", email: "once@match.example" }, 200);
  const jobs = await db().job.findMany({ where: { teamId: team.id, kind: "chat" }, include: { chatDestination: true } });
  assert.deepEqual(jobs.map((job) => [job.chatDestination!.name, job.eventType]).sort(), [
    ["forms", "lead.created"],
    ["forms", "lead.submitted"],
    ["partner", "lead.submitted"],
  ]);
  assert.ok(jobs.every((job) => job.leadId === leadId));
  await dispatcher.runOnce();
  assert.deepEqual([forms.received.length, partner.received.length], [1, 1], "one each now, the next a second later");
  assert.ok(forms.received.concat(partner.received).every((got) => got.problems.length === 0));
  clock += 1000;
  await dispatcher.runOnce();
  assert.equal(forms.received.length, 2);
  clock += 1000;
});

test("a destination that does not post repeats gets none; a quarantined repeat posts nothing", async () => {
  const { team } = await makeTeam("chat-repeat-spam");
  const repeatKey = await createApiKey({ teamId: team.id, description: "Site", repeats: "add", spamChecks: true });
  const slack = await fake("slack");
  const quiet = await fake("teams");
  await add(team.id, slack, { name: "repeats" });
  await add(team.id, quiet, { name: "no repeats", postRepeats: false });
  await postLead(repeatKey, { name: "Spam Later", email: "later@spam.example" });
  assert.equal((await chatJobs(team.id)).length, 2, "the new lead, to both");
  await postLead(repeatKey, { name: "Spam Later", email: "later@spam.example" }, 200);
  assert.deepEqual(
    (await chatJobs(team.id)).map((job) => job.eventType),
    ["lead.created", "lead.created", "lead.submitted"],
    "the repeat only where repeats are posted",
  );
  const blocked = await addSpamListValues({ teamId: team.id, role: "owner", list: "blocked_email", text: "later@spam.example", actor });
  assert.ok(blocked.ok, JSON.stringify(blocked));
  await postLead(repeatKey, { name: "Spam Later", email: "later@spam.example" });
  assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 1);
  assert.equal((await chatJobs(team.id)).length, 3, "the quarantined repeat queued nothing");
  await dispatcher.runOnce();
  clock += 1000;
  await dispatcher.runOnce();
  assert.equal(slack.received.length, 2);
  assert.equal(quiet.received.length, 1);
  clock += 1000;
});

test("a lead still New after the team's reminder time is posted where reminders are, once", async () => {
  const { team, key } = await makeTeam("chat-remind");
  const teams = await fake("teams");
  await add(team.id, teams, { postNewLeads: false, postAssignments: false, postReminders: true });
  await writeNewLeadReminder(team.id, 5);
  const leadId = await postLead(key, { name: "Waiting Lead", organization: "Queue" });
  const later = new Date(Date.now() + 6 * 60_000);
  await sendNewLeadReminders(later);
  await sendNewLeadReminders(new Date(later.getTime() + 60_000));
  const jobs = await chatJobs(team.id);
  assert.deepEqual(
    jobs.map((job) => [job.eventType, job.leadId]),
    [["lead.reminder", leadId]],
  );
  await dispatcher.runOnce();
  assert.equal(teams.received.length, 1);
  assert.deepEqual(teams.received[0]!.problems, []);
  assert.ok(JSON.stringify(teams.received[0]!.body).includes("Lead still New: Waiting Lead"));
  clock += 1000;
});

test("a delivery log row goes with its job when finished jobs are pruned", async () => {
  const { pruneFinishedJobs } = await import("../jobs/job-store");
  const before = await db().chatDelivery.count();
  assert.ok(before > 0);
  assert.ok((await pruneFinishedJobs(new Date(clock + 24 * 60 * 60 * 1000))) > 0);
  const left = await db().chatDelivery.findMany({ select: { job: { select: { state: true } } } });
  assert.ok(left.length < before, "the pruned jobs' rows went");
  assert.ok(left.every((row) => row.job && !["delivered", "failed", "cancelled"].includes(row.job.state)));
});
