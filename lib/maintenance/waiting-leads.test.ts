import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, beforeEach, mock, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createLead } from "../leads/create-lead";
import { assignLeads } from "../leads/lead-ownership";
import { actorOf, makeTeam } from "../leads/lead-ownership.fixtures";
import { parseLeadInput } from "../leads/parse-lead-input";
import { removeRule, saveRule, type RuleInput } from "../routing/assignment-rules";
import { previewRouting } from "../routing/routing-preview";
import { setAvailability } from "../users/availability-store";
import { createEndpoint } from "../webhooks/webhook-endpoint-changes";
import { assignWaitingLeads, runWaitingLeads } from "./waiting-leads";

// A rule's fallback "the next member on duty, later" (docs/routing.md "Assignment rules"): a
// lead matched while nobody the rule names is on duty comes in unassigned and waits (its
// WaitingLead row, written in the lead's own transaction); the job (waiting-leads.ts) gives it
// to the next member on duty by the rule's turn once one is, audited and sent as lead.updated,
// once however often it runs; a lead taken meanwhile, or whose rule is gone, stops waiting.
// Leads are created at the app's clock (LEAD_INTAKE_TEST_CLOCK_FILE); the job is passed `now`.

await useTestDatabase();
mock.method(process.stderr, "write", () => true);

const dir = mkdtempSync(path.join(os.tmpdir(), "waiting-clock-"));
const clockFile = path.join(dir, "now");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
after(() => {
  delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE;
  rmSync(dir, { recursive: true, force: true });
});

// Every day 09:00–17:00 UTC: 03:00 is off duty, 09:30 on.
const NIGHT = "2026-12-01T03:00:00.000Z";
const STILL_NIGHT = new Date("2026-12-01T04:00:00.000Z");
const MORNING = new Date("2026-12-01T09:30:00.000Z");
const HOURS = { timeZone: "UTC", days: [1, 2, 3, 4, 5, 6, 7], start: "09:00", end: "17:00" };

beforeEach(() => writeFileSync(clockFile, NIGHT));

async function create(teamId: string, extra: Partial<Parameters<typeof createLead>[0]> = {}) {
  const input = parseLeadInput([["name", "Grace Hopper"]]);
  const { leadId } = await createLead({ team: { id: teamId, defaultPhoneCountry: null }, apiKeyId: null, input, ...extra });
  return leadId;
}

const lead = (id: string) => db().lead.findUniqueOrThrow({ where: { id }, select: { ownerId: true, assignedAt: true } });
const waiting = (teamId: string) => db().waitingLead.findMany({ where: { teamId }, orderBy: { since: "asc" } });
const assignedEvents = (teamId: string) =>
  db().auditEvent.findMany({ where: { teamId, action: "lead.assigned" }, orderBy: { targetId: "asc" } });

/** A team whose admin and member work 09:00–17:00 UTC, and a rule (a round robin over both, or the admin) falling back "later". */
async function waitingTeam(mode: RuleInput["mode"] = "round_robin") {
  const people = await makeTeam();
  for (const person of [people.admin, people.member]) {
    assert.ok(await setAvailability(person.id, { away: false, awayUntil: null, workingHours: HOURS }));
  }
  const saved = await saveRule({
    teamId: people.team.id,
    input: {
      name: "Night",
      enabled: true,
      conditions: [],
      mode,
      userIds: mode === "member" ? [people.admin.id] : [people.admin.id, people.member.id],
      fallbackUserId: null,
      fallbackLater: true,
    },
    actor: actorOf(people.owner),
  });
  assert.ok(saved.ok, saved.ok ? "" : saved.error);
  return { ...people, ruleId: saved.ruleId };
}

test("a lead nobody is on duty for waits, and the job gives it to the next member on duty by the turn, once", async () => {
  const { team, owner, admin, member, ruleId } = await waitingTeam();
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/in",
    description: null,
    events: ["lead.updated"],
    actor: actorOf(owner),
  });
  const first = await create(team.id);
  const second = await create(team.id);
  assert.deepEqual(await lead(first), { ownerId: null, assignedAt: null });
  assert.deepEqual(
    (await waiting(team.id)).map((row) => [row.leadId, row.ruleId, row.since.toISOString()]),
    [
      [first, ruleId, NIGHT],
      [second, ruleId, NIGHT],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
  );

  assert.deepEqual(await assignWaitingLeads(STILL_NIGHT), { assigned: 0, dropped: 0, waiting: 2 });
  assert.equal((await lead(first)).ownerId, null, "nobody on duty yet: it keeps waiting");
  assert.equal((await waiting(team.id)).length, 2);

  assert.deepEqual(await assignWaitingLeads(MORNING), { assigned: 2, dropped: 0, waiting: 0 });
  const owners = [(await lead(first)).ownerId, (await lead(second)).ownerId];
  assert.deepEqual([...owners].sort(), [admin.id, member.id].sort(), "one each, by the round robin's turn");
  assert.deepEqual((await lead(first)).assignedAt, MORNING);
  assert.deepEqual(await waiting(team.id), []);
  const ownerOf = new Map([
    [first, owners[0]],
    [second, owners[1]],
  ]);
  assert.deepEqual(
    (await assignedEvents(team.id)).map((event) => [event.targetId, event.actorUserId, event.details]),
    [first, second].sort().map((id) => [id, null, { from: null, to: ownerOf.get(id), reason: "routing_waited" }]),
    "audited as assigned by the system",
  );
  assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.updated" } }), 2, "a lead.updated each");
  assert.equal((await db().assignmentRule.findUniqueOrThrow({ where: { id: ruleId } })).turn, 2, "two turns taken");

  // Again, and concurrently: nothing more.
  assert.deepEqual(await assignWaitingLeads(MORNING), { assigned: 0, dropped: 0, waiting: 0 });
  await Promise.all([assignWaitingLeads(MORNING), runWaitingLeads(MORNING)]);
  assert.equal((await assignedEvents(team.id)).length, 2);
  assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.updated" } }), 2);
});

test("two instances' runs at once assign a waiting lead once; a run in the same period is skipped by the claim", async () => {
  const { team } = await waitingTeam();
  const id = await create(team.id);
  const at = new Date(MORNING.getTime() + 7 * 24 * 60 * 60 * 1000);
  await Promise.all([assignWaitingLeads(at), assignWaitingLeads(at), assignWaitingLeads(at)]);
  assert.notEqual((await lead(id)).ownerId, null);
  assert.equal((await assignedEvents(team.id)).length, 1);
  // A lead still waiting at night, eight days on: one run claims the period, the next is skipped.
  const waits = await create(team.id);
  const night = new Date(new Date(NIGHT).getTime() + 8 * 24 * 60 * 60 * 1000);
  assert.notEqual(await runWaitingLeads(night), null);
  assert.equal(await runWaitingLeads(new Date(night.getTime() + 1000)), null, "claimed for this period");
  assert.equal((await lead(waits)).ownerId, null);
  await db().lead.delete({ where: { id: waits } }); // the next tests count every waiting lead
});

test("a lead taken meanwhile stops waiting with its owner; a deleted or disabled rule's leads stop waiting", async () => {
  const { team, owner, admin, ruleId } = await waitingTeam();
  const taken = await create(team.id);
  await assignLeads({ teamId: team.id, leadIds: [taken], ownerId: owner.id, actor: actorOf(admin) });
  assert.deepEqual(await assignWaitingLeads(MORNING), { assigned: 0, dropped: 1, waiting: 0 });
  assert.equal((await lead(taken)).ownerId, owner.id);
  assert.deepEqual(await waiting(team.id), []);
  assert.deepEqual(
    (await assignedEvents(team.id)).map((event) => event.actorUserId),
    [admin.id],
  );

  const orphan = await create(team.id);
  assert.ok((await removeRule({ teamId: team.id, ruleId, actor: actorOf(owner) })).ok);
  assert.deepEqual(await assignWaitingLeads(MORNING), { assigned: 0, dropped: 1, waiting: 0 });
  assert.equal((await lead(orphan)).ownerId, null, "unassigned, and no longer waiting");
  assert.deepEqual(await waiting(team.id), []);

  const other = await waitingTeam();
  const paused = await create(other.team.id);
  const rule = await db().assignmentRule.findUniqueOrThrow({ where: { id: other.ruleId } });
  const input = {
    name: rule.name,
    enabled: false,
    conditions: [],
    mode: "round_robin" as const,
    userIds: rule.userIds as string[],
    fallbackUserId: null,
    fallbackLater: true,
  };
  assert.ok((await saveRule({ teamId: other.team.id, ruleId: other.ruleId, input, actor: actorOf(other.owner) })).ok);
  await assignWaitingLeads(MORNING);
  assert.equal((await lead(paused)).ownerId, null);
  assert.deepEqual(await waiting(other.team.id), []);
});

test("a deleted lead's row goes with it; a rolled-back create leaves none", async () => {
  const { team } = await waitingTeam();
  const id = await create(team.id);
  await db().lead.delete({ where: { id } });
  assert.deepEqual(await waiting(team.id), []);
  const spent = { id: `challenge-${team.id}`, expiresAt: new Date(Date.now() + 60_000) };
  await db().spentChallenge.create({ data: spent });
  const replayed = new Error("replayed");
  await assert.rejects(create(team.id, { spentChallenge: { ...spent, replayed: () => replayed } }), replayed);
  assert.deepEqual(await waiting(team.id), []);
  assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
});

test("a lead that comes in while a member of the rule is on duty gets them at once and does not wait", async () => {
  const { team, admin } = await waitingTeam("member");
  writeFileSync(clockFile, MORNING.toISOString());
  const id = await create(team.id);
  assert.equal((await lead(id)).ownerId, admin.id);
  assert.deepEqual(await waiting(team.id), []);
});

test("a rule cannot have both a fallback member and 'later'; 'Test a lead' says the lead waits", async () => {
  const { team, owner, admin } = await waitingTeam();
  const refused = await saveRule({
    teamId: team.id,
    input: {
      name: "Both",
      enabled: true,
      conditions: [],
      mode: "member",
      userIds: [admin.id],
      fallbackUserId: owner.id,
      fallbackLater: true,
    },
    actor: actorOf(owner),
  });
  assert.deepEqual(refused, { ok: false, error: "Choose a fallback member or the next member on duty, not both." });
  const preview = await previewRouting({
    team: { id: team.id, defaultPhoneCountry: null },
    body: { name: "Ada" },
    origin: {},
    now: new Date(NIGHT),
  });
  assert.ok(preview.ok);
  assert.equal(preview.owner, null);
  assert.equal(preview.because, "Nobody the rule names is on duty now: the lead waits for the next member on duty.");
  assert.equal(await db().waitingLead.count({ where: { teamId: team.id } }), 0, "a preview creates nothing");
});
