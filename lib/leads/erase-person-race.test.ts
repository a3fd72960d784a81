import assert from "node:assert/strict";
import { after, mock, test } from "node:test";
import { startWebhookReceiver } from "../../test/support/webhook-receiver";
import { useTestDatabase } from "../../test/support/test-database";
import type { AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { Dispatcher } from "../jobs/dispatcher";
import { setNewLeadEmails } from "../notifications/notification-changes";
import { addMember, createTeam } from "../teams/team-store";
import { createUser } from "../users/user-store";
import { webhookHandler } from "../webhooks/webhook-delivery";
import { createEndpoint, revealSigningSecret } from "../webhooks/webhook-endpoint-changes";
import { createLead } from "./create-lead";
import { parsePerson, runErasure, type Erasure } from "./erase-person";

// A person is erased while the dispatcher is delivering their lead's webhook and email (both
// jobs claimed, the POST and the email under way): the erasure deletes the running jobs,
// and the dispatcher then finds no job to record the attempts on. It must neither crash
// nor send them again, nor leave a delivery-log row behind. (What it logs: the email's end
// is a lost claim, jobs.claim_lost; the webhook's delivery-log row is refused by its
// foreign key, jobs.finish_failed, and nothing of the attempt is written.)

// New-lead emails are queued only where email is configured; this test's handler sends nothing.
process.env.SMTP_URL = "smtp://127.0.0.1:9";
await useTestDatabase();
const logged: string[] = [];
mock.method(process.stderr, "write", (line: string) => (logged.push(String(line)), true));

const actor: AuditActor = { userId: null, ip: null, via: "web" };
const receiver = await startWebhookReceiver();
after(() => receiver.close());

test("a job erased while it is being delivered is neither recorded nor sent again", async () => {
  const team = await createTeam({ slug: "erase-race", name: "Erase race", defaultPhoneCountry: "GB" });
  const endpoint = await createEndpoint({ teamId: team.id, url: receiver.url, description: null, events: ["lead.created"], actor });
  receiver.secret = await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor });
  const member = await createUser({ email: "member@example.test", password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });
  await setNewLeadEmails({ userId: member.id, teamId: team.id, enabled: true, actor });
  const { leadId } = await createLead({
    team: { id: team.id, defaultPhoneCountry: "GB" },
    apiKeyId: null,
    input: { extraFields: {}, name: "Grace Hopper", email: "grace@navy.example" },
  });

  // The receiver holds the POST open, and the email handler its email, until the erasure
  // (started by the POST's arrival) has committed.
  const started: { erasure?: Promise<Erasure> } = {};
  let erased!: () => void;
  const committed = new Promise<void>((resolve) => (erased = resolve));
  receiver.onRequest = async () => {
    const person = parsePerson("grace@navy.example", team)!;
    await (started.erasure ??= runErasure({ team, person, confirmedIds: [leadId], actor }).finally(erased));
  };
  const clock = { now: new Date(Date.now() + 1_000) };
  const dispatcher = new Dispatcher({
    handlers: { webhook: webhookHandler({ allowPrivate: true }), email: { run: () => committed.then(() => ({ ok: true })) } },
    now: () => clock.now,
    random: () => 0.5,
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  assert.equal(await dispatcher.runOnce(), 2, "both attempts end without throwing");
  assert.ok(started.erasure, "the erasure ran while the POST was under way");
  const result = await started.erasure;
  assert.equal(await db().job.count(), 0);
  assert.equal(await db().webhookAttempt.count(), 0, "no delivery-log row names the erased job");
  assert.deepEqual([result.leads, result.jobs, result.deliveryAttempts], [1, 2, 0]);
  // Past the lease and every retry: nothing is claimed again.
  clock.now = new Date(clock.now.getTime() + 48 * 60 * 60 * 1000);
  assert.equal(await dispatcher.runOnce(), 0);
  assert.equal(receiver.deliveries.length, 1, "the receiver got the POST that was under way, once");
  const events = logged.map((line) => (JSON.parse(line) as { event: string }).event);
  assert.ok(!events.includes("jobs.handler_failed"), events.join(", "));
  // A failed finish names the job's kind; the driver error's own kind is error_kind.
  for (const line of logged.map((l) => JSON.parse(l) as { event: string; kind?: string })) {
    if (line.event === "jobs.finish_failed") assert.ok(line.kind === "webhook" || line.kind === "email", JSON.stringify(line));
  }
  assert.ok(!logged.join("").toLowerCase().includes("grace"), "no log line names the person");
});
