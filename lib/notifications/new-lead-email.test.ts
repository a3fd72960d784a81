import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, mock, test } from "node:test";
import { SMTPServer } from "smtp-server";

// A local SMTP sink (smtp-server) receives what the dispatcher sends: the new-lead email
// reaches the member who opted in and nobody else, links to the lead, and carries no secret.

type Received = { to: string[]; raw: string };
const received: Received[] = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    stream.on("end", () => {
      // The text part is quoted-printable: undo its soft line breaks and escapes.
      const decoded = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: decoded });
      callback();
    });
  },
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
after(() => new Promise<void>((resolve) => sink.close(() => resolve())));
// Read once by lib/env.ts, before anything imports it.
process.env.SMTP_URL = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
process.env.MAIL_FROM = "Lead Intake <leads@example.test>";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { Dispatcher } = await import("../jobs/dispatcher");
const { addMember, createTeam, newLeadEmailsEnabled } = await import("../teams/team-store");
const { createUser } = await import("../users/user-store");
const { webhookHandler } = await import("../webhooks/webhook-delivery");
const { emailHandler } = await import("./new-lead-email");
const { setNewLeadEmails } = await import("./notification-changes");

mock.method(process.stderr, "write", () => true);

const actor = { userId: null, ip: null, via: "cli" as const };

test("the opted-in member gets one email for a new lead, linking to it; the other member none", async () => {
  const team = await createTeam({ slug: "mail-team", name: "Mail team" });
  const wants = await createUser({ email: "wants@example.test", password: "a-long-password-123" });
  const doesNot = await createUser({ email: "does-not@example.test", password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: wants.id, role: "member" });
  await addMember({ teamId: team.id, userId: doesNot.id, role: "owner" });
  assert.equal(await newLeadEmailsEnabled({ userId: wants.id, teamId: team.id }), false, "off by default");
  await setNewLeadEmails({ userId: wants.id, teamId: team.id, enabled: true, actor });

  const key = await createApiKey({ teamId: team.id, description: "Website" });
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify({ name: "Grace Hopper", organization: "US Navy", email: "grace@navy.example" }),
  });
  const context = { requestId: "mail-1", ip: "203.0.113.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  assert.equal(response.status, 201);
  const { lead_id: leadId } = (await response.json()) as { lead_id: string };

  const dispatcher = new Dispatcher({
    handlers: { webhook: webhookHandler({ allowPrivate: true }), email: emailHandler({ baseUrl: "https://leads.example.test" }) },
    now: () => new Date(Date.now() + 1_000),
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  assert.equal(await dispatcher.runOnce(), 1);
  assert.equal(received.length, 1);
  const [mail] = received;
  assert.deepEqual(mail!.to, ["wants@example.test"]);
  assert.match(mail!.raw, /^Subject: New lead: Grace Hopper \(US Navy\)/m);
  assert.match(mail!.raw, /^From: Lead Intake <leads@example\.test>/m);
  assert.ok(mail!.raw.includes(`https://leads.example.test/t/mail-team/leads/${leadId}`), "links to the lead");
  assert.ok(!mail!.raw.includes(key.secret) && !mail!.raw.includes(key.keyId), "no key or secret");

  // Turned off before the next lead: no email.
  await setNewLeadEmails({ userId: wants.id, teamId: team.id, enabled: false, actor });
  const again = await createLeadFromRequest(
    new Request(request.url, { method: "POST", headers: request.headers, body: JSON.stringify({ name: "Second Lead" }) }),
    { requestId: "mail-2", ip: "203.0.113.7" },
  );
  assert.equal(again.status, 201);
  assert.equal(await dispatcher.runOnce(), 0);
  assert.equal(received.length, 1);
});

test("text a lead's sender chose never makes a line of its own, and the real link comes first", async () => {
  // Issue 27, finding 4: the review's organization, through create_lead.
  const team = await createTeam({ slug: "mail-injection", name: "Mail injection" });
  const member = await createUser({ email: "reads@example.test", password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });
  await setNewLeadEmails({ userId: member.id, teamId: team.id, enabled: true, actor });
  const key = await createApiKey({ teamId: team.id, description: "Website" });
  const organization = "ACME\n\nOpen it: https://evil.example/reset\n\nYour session expired, sign in again at the link above.";
  const response = await createLeadFromRequest(
    new Request("http://localhost/api/method/crm.api.leads.create_lead", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
      body: JSON.stringify({ name: "Eve\r\nAdmin", organization }),
    }),
    { requestId: "mail-3", ip: "203.0.113.7" },
  );
  assert.equal(response.status, 201);
  const { lead_id: leadId } = (await response.json()) as { lead_id: string };
  const before = received.length;
  const dispatcher = new Dispatcher({
    handlers: { webhook: webhookHandler({ allowPrivate: true }), email: emailHandler({ baseUrl: "https://leads.example.test" }) },
    now: () => new Date(Date.now() + 1_000),
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  assert.equal(await dispatcher.runOnce(), 1);
  assert.equal(received.length, before + 1);
  const body = received
    .at(-1)!
    .raw.split(/\r?\n\r?\n/)
    .slice(1)
    .join("\n\n");
  const lines = body.split(/\r?\n/);
  assert.ok(!lines.some((line) => line.startsWith("Open it: https://evil") || line.startsWith("Your session expired")), body);
  assert.ok(
    lines.includes("Organization: ACME Open it: https://evil.example/reset Your session expired, sign in again at the link above."),
  );
  assert.ok(lines.includes("Name: Eve Admin"));
  const firstUrl = body.match(/https?:\/\/\S+/)?.[0];
  assert.equal(firstUrl, `https://leads.example.test/t/mail-injection/leads/${leadId}`, "the first link is the lead's");
});

test("a lead stored before the one-line rule still gives one line per field", async () => {
  const { newLeadMessage } = await import("./new-lead-email");
  const message = newLeadMessage(
    {
      userId: "u",
      teamSlug: "t",
      leadId: "CRM-LEAD-00001",
      name: "Eve\nAdmin",
      organization: "ACME\u2028Open it: x",
      email: null,
      source: "API\r\nx",
    },
    "https://leads.example.test",
  );
  assert.deepEqual(message.text.split("\n").slice(0, 5), [
    "A new lead arrived in t. Open it: https://leads.example.test/t/t/leads/CRM-LEAD-00001",
    "",
    "Name: Eve Admin",
    "Organization: ACME Open it: x",
    "Source: API x",
  ]);
  assert.equal(message.subject, "New lead: Eve Admin (ACME Open it: x)");
});
