import assert from "node:assert/strict";
import { mock, test } from "node:test";
import fc from "fast-check";
import { startSmtpSink } from "../notifications/smtp-sink.fixtures";

// The New-lead reminder (new-lead-reminders.ts, docs/routing.md "Emails") through a local SMTP
// sink: a lead still New after the team's time gets one email, to its owner or (unassigned)
// to each owner and admin who wants them; a contacted or imported lead none; however often
// and concurrently the job runs, once; off, none; turned on, the leads already waiting none.
// Times are passed explicitly (`now`), the leads' own set where a test needs them.

const received = await startSmtpSink();
const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { Dispatcher } = await import("../jobs/dispatcher");
const { assignLeads, setLeadStatus } = await import("../leads/lead-ownership");
const { actorOf, lead, makeTeam } = await import("../leads/lead-ownership.fixtures");
const { REMINDER_EMAIL } = await import("../notifications/assignment-email");
const { emailHandler } = await import("../notifications/new-lead-email");
const { readNewLeadReminder, writeNewLeadReminder } = await import("../notifications/new-lead-reminder-store");
const { setAssignmentEmails } = await import("../notifications/notification-changes");
const { REMINDER_PERIOD_MS, runNewLeadReminders, sendNewLeadReminders } = await import("./new-lead-reminders");

mock.method(process.stderr, "write", () => true);

const MINUTE = 60 * 1000;
const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

/** Sends every due email job; returns the reminders the sink got meanwhile, as [to, subject]. */
async function deliver() {
  const before = received.length;
  const dispatcher = new Dispatcher({
    handlers: { email: emailHandler({ baseUrl: "https://leads.example.test" }) },
    now: () => later(3 * 24 * 60),
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  while ((await dispatcher.runOnce()) > 0);
  return received
    .slice(before)
    .filter((mail) => mail.subject.startsWith("Lead still New"))
    .map((mail) => [mail.to.join(","), mail.subject]);
}

/** A team (owner, admin, two members) with a 15-minute reminder. */
async function teamWithReminder(minutes = 15) {
  const people = await makeTeam();
  await writeNewLeadReminder(people.team.id, minutes);
  return people;
}

const reminders = (teamId: string) => db().job.findMany({ where: { teamId, eventType: REMINDER_EMAIL } });

test("a lead still New after the time: one email to its owner, however often and concurrently the job runs", async () => {
  const { team, admin, member } = await teamWithReminder();
  const id = await lead(team.id, "Grace Hopper");
  await assignLeads({ teamId: team.id, leadIds: [id], ownerId: member.id, actor: actorOf(admin) });
  await sendNewLeadReminders(later(14));
  assert.deepEqual(await reminders(team.id), [], "not yet");
  await Promise.all([sendNewLeadReminders(later(16)), sendNewLeadReminders(later(16))]);
  await sendNewLeadReminders(later(60));
  assert.deepEqual(await deliver(), [[member.email, "Lead still New after 15 minutes: Grace Hopper (Grace Hopper)"]]);
  await sendNewLeadReminders(later(24 * 60));
  assert.deepEqual(await deliver(), []);
  const [mail] = received.filter((message) => message.subject.startsWith("Lead still New") && message.to[0] === member.email);
  assert.match(
    mail!.body,
    /^A lead of owners-\d+ assigned to you is still New after 15 minutes\. Open it: https:\/\/leads\.example\.test\/t\/owners-\d+\/leads\/CRM-LEAD-\d+\r?$/m,
  );
});

test("an unassigned lead: each owner and admin who wants them; a contacted or imported lead: none", async () => {
  const { team, owner, admin, member } = await teamWithReminder(60);
  await setAssignmentEmails({ userId: admin.id, teamId: team.id, enabled: false, actor: actorOf(admin) });
  const waiting = await lead(team.id, "Nobody's");
  const contacted = await lead(team.id, "Called Back");
  const imported = await lead(team.id, "From A File");
  await db().lead.update({ where: { id: imported }, data: { importId: "imp_reminder" } });
  await setLeadStatus({ teamId: team.id, leadIds: [contacted], status: "contacted", actor: actorOf(member) });
  const run = await sendNewLeadReminders(later(61));
  assert.ok(run.leads >= 3);
  assert.deepEqual(await deliver(), [[owner.email, "Lead still New after 1 hour: Nobody's (Nobody's)"]]);
  assert.deepEqual(
    (await reminders(team.id)).map((job) => JSON.parse(job.payload) as unknown),
    [{ kind: "reminder", userId: owner.id, leadId: waiting, minutes: 60, unassigned: true }],
  );
});

test("off: none; turned on, the leads already waiting none, the next ones theirs; contacted before it is sent: dropped", async () => {
  const { team, owner, admin } = await makeTeam();
  const old = await lead(team.id, "Waited Long");
  assert.equal(await readNewLeadReminder(team.id), null, "off by default");
  await sendNewLeadReminders(later(2 * 24 * 60));
  assert.deepEqual(await reminders(team.id), []);

  await writeNewLeadReminder(team.id, 240);
  assert.equal(await readNewLeadReminder(team.id), 240);
  const fresh = await lead(team.id, "Came After");
  const called = await lead(team.id, "Called Soon");
  await sendNewLeadReminders(later(5 * 60));
  assert.deepEqual(
    (await reminders(team.id)).map((job) => (JSON.parse(job.payload) as { leadId: string }).leadId).sort(),
    [fresh, fresh, called, called].sort(),
    "the owner's and the admin's, for the leads after the switch",
  );
  assert.ok(!(await reminders(team.id)).some((job) => job.payload.includes(old)));
  await setLeadStatus({ teamId: team.id, leadIds: [called], status: "qualified", actor: actorOf(owner) });
  assert.deepEqual(
    (await deliver()).sort(),
    [
      [admin.email, "Lead still New after 4 hours: Came After (Came After)"],
      [owner.email, "Lead still New after 4 hours: Came After (Came After)"],
    ].sort(),
  );

  // Off again: nothing more.
  await writeNewLeadReminder(team.id, null);
  await lead(team.id, "While Off");
  await sendNewLeadReminders(later(3 * 24 * 60));
  assert.equal((await reminders(team.id)).length, 4);
});

test("one run per period across instances (the claim)", async () => {
  const now = later(10 * 24 * 60);
  const runs = await Promise.all([runNewLeadReminders(now), runNewLeadReminders(now)]);
  assert.equal(runs.filter((run) => run === null).length, 1);
  assert.equal(await runNewLeadReminders(new Date(now.getTime() + REMINDER_PERIOD_MS - 1)), null);
  assert.notEqual(await runNewLeadReminders(new Date(now.getTime() + REMINDER_PERIOD_MS)), null);
});

test("whatever the leads and the runs: each lead still New is reminded of once, when a run reaches it in seq order old enough", async () => {
  const spec = fc.record({
    leads: fc.array(
      fc.record({ gapMinutes: fc.integer({ min: -15, max: 20 }), status: fc.constantFrom("new", "new", "contacted"), owned: fc.boolean() }),
      { minLength: 1, maxLength: 6 },
    ),
    runs: fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 5 }),
    changedTo: fc.option(fc.constantFrom(15, 60), { nil: null }),
  });
  await fc.assert(
    fc.asyncProperty(spec, async ({ leads, runs, changedTo }) => {
      const { team, owner, admin, member } = await teamWithReminder(60);
      const start = Date.now() - 10 * 24 * 60 * MINUTE;
      let at = start;
      const made: { id: string; createdAt: number; status: string; owned: boolean }[] = [];
      for (const spec of leads) {
        at += spec.gapMinutes * MINUTE;
        const id = await lead(team.id);
        await db().lead.update({
          where: { id },
          data: { createdAt: new Date(at), status: spec.status, ownerId: spec.owned ? member.id : null },
        });
        made.push({ id, createdAt: at, status: spec.status, owned: spec.owned });
      }
      // Runs in time order from an hour before the last lead; the reminder's time may change
      // between the first run and the next.
      const times = [...runs].sort((a, b) => a - b).map((minutes) => at + (minutes - 60) * MINUTE);
      let minutes = 60;
      // The model: each run looks at the leads in seq order up to the first one too young (a
      // lead's time may be a little before the one ahead of it: concurrent creates), each once;
      // those New then get their reminders.
      const expected = new Map<string, boolean>();
      let looked = 0;
      for (const [i, time] of times.entries()) {
        if (i === 1 && changedTo) {
          minutes = changedTo;
          await writeNewLeadReminder(team.id, changedTo);
        }
        await sendNewLeadReminders(new Date(time));
        for (; looked < made.length && made[looked]!.createdAt <= time - minutes * MINUTE; looked++) {
          if (made[looked]!.status === "new") expected.set(made[looked]!.id, made[looked]!.owned);
        }
      }
      const got = new Map<string, string[]>();
      for (const job of await reminders(team.id)) {
        const payload = JSON.parse(job.payload) as { leadId: string; userId: string; unassigned: boolean };
        const owned = made.find((one) => one.id === payload.leadId)!.owned;
        assert.equal(payload.unassigned, !owned);
        got.set(payload.leadId, [...(got.get(payload.leadId) ?? []), payload.userId].sort());
      }
      const want = new Map([...expected].map(([id, owned]) => [id, owned ? [member.id] : [owner.id, admin.id].sort()]));
      assert.deepEqual(new Map([...got].sort()), new Map([...want].sort()));
    }),
    { numRuns: 30 },
  );
});
