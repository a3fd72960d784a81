import assert from "node:assert/strict";
import { test } from "node:test";
import { untilOneWaitsOnLock } from "../../test/support/lock-waits";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { driver } from "../db/driver";
import { claimJobById } from "../jobs/job-store";
import type { LeadWrite } from "../leads/lead-write";
import { batchLocksSql } from "../leads/lead-writer-postgres";
import { createLead } from "../leads/create-lead";
import { actorOf, makeTeam, makeUser } from "../leads/lead-ownership.fixtures";
import { saveRule, setRoutingFallback, type RuleInput } from "../routing/assignment-rules";
import { changeMembership } from "../teams/membership-changes";
import { addMember } from "../teams/team-store";
import { assignmentLabel, assignmentOptions } from "./import-assignment-choice";
import { BUSY_BATCH_ROWS, runImport } from "./import-job";
import { findImport, importJobId } from "./import-store";
import { startImport, undoImport } from "./lead-import";
import { actor, finish, run, upload } from "./lead-import.fixtures";

// An import's choice of owners from start to undo (docs/routing.md "Imports"): unassigned,
// all to one member (while they are one when the batch runs), or by the team's rules as they
// are when each batch runs, a round robin sharing its rotation with the intake; updated
// duplicates keep their owner; a member who is none, or rules that assign nobody, are refused
// at the start. The batch's owners themselves: lib/routing/import-assignment.test.ts.

const database = await useTestDatabase();

const csv = (rows: string[]) => ["Name,Email,UTM source", ...rows].join("\n");
const people = (count: number, prefix = "p", utm = "") =>
  Array.from({ length: count }, (_, i) => `Person ${i},${prefix}${i}@example.com,${utm}`);

const imported = (importId: string) =>
  db().lead.findMany({
    where: { importId },
    orderBy: { seq: "asc" },
    select: { id: true, ownerId: true, assignedAt: true, createdAt: true },
  });

async function addRule(teamId: string, actorId: string, input: Partial<RuleInput> & Pick<RuleInput, "userIds">): Promise<string> {
  const mode = input.userIds.length > 1 ? "round_robin" : "member";
  const rule = { name: "Rule", enabled: true, conditions: [], mode, fallbackUserId: null, ...input } as RuleInput;
  const saved = await saveRule({ teamId, input: rule, actor: actorOf({ id: actorId }) });
  assert.ok(saved.ok, saved.ok ? "" : saved.error);
  return saved.ruleId;
}

/** A lead created the API's way; its owner. */
async function intakeOwner(teamId: string, utmSource?: string): Promise<string | null> {
  const input = { extraFields: {}, name: "Intake", utm_source: utmSource };
  const { leadId } = await createLead({ team: { id: teamId, defaultPhoneCountry: null }, apiKeyId: null, input });
  return (await db().lead.findUniqueOrThrow({ where: { id: leadId }, select: { ownerId: true } })).ownerId;
}

test("unassigned by default; all to one member, assigned at the batch's time; undone as before", async () => {
  const { team, owner, member } = await makeTeam();
  const none = await run((await upload(team.id, csv(people(3)))).record);
  assert.deepEqual(
    (await imported(none.id)).map((lead) => [lead.ownerId, lead.assignedAt]),
    [
      [null, null],
      [null, null],
      [null, null],
    ],
  );
  assert.equal(await assignmentLabel(none), "Unassigned");

  const { record } = await upload(team.id, csv(people(3, "q")));
  const done = await run(record, { assign: { mode: "member", userId: member.id } });
  const leads = await imported(record.id);
  assert.deepEqual(
    leads.map((lead) => lead.ownerId),
    [member.id, member.id, member.id],
  );
  assert.ok(leads.every((lead) => lead.assignedAt?.getTime() === lead.createdAt.getTime()));
  assert.deepEqual([done.assignMode, done.assignUserId], ["member", member.id]);
  assert.equal(await assignmentLabel(done), "Assigned to Mia Member");
  const started = (await listAuditEvents(team.id)).find((event) => event.action === "lead.import_started" && event.targetId === record.id);
  assert.deepEqual(started?.details, { fileName: "leads.csv", rows: 3, duplicates: "create", assign: "member", assignUserId: member.id });

  assert.deepEqual(await undoImport({ record: done, actor: actorOf(owner) }), { ok: true, deleted: 3, kept: [] });
  assert.equal(await db().lead.count({ where: { importId: record.id } }), 0);
});

test("a round robin of 3 over 30 imported rows gives 10 each; the intake continues the rotation where the import left it", async () => {
  const { team, owner, admin, member } = await makeTeam();
  const rotation = [owner.id, admin.id, member.id];
  const ruleId = await addRule(team.id, owner.id, { userIds: rotation });
  assert.equal(await intakeOwner(team.id), owner.id, "the intake took the first turn");

  const { record } = await upload(team.id, csv(people(30)));
  const done = await run(record, { assign: { mode: "rules", userId: null } });
  assert.equal(await assignmentLabel(done), "Assigned by the rules");
  const owners = (await imported(record.id)).map((lead) => lead.ownerId);
  assert.deepEqual(
    owners,
    owners.map((_, index) => rotation[(index + 1) % 3]),
    "from the second member on, each in turn, in file order",
  );
  assert.deepEqual(
    rotation.map((id) => owners.filter((ownerId) => ownerId === id).length),
    [10, 10, 10],
  );
  assert.equal(await intakeOwner(team.id), admin.id, "the 32nd lead of the rotation");

  // A rotation that does not come round to where it started: the turn is the rule's row's.
  const one = await upload(team.id, csv(people(1, "one")));
  await run(one.record, { assign: { mode: "rules", userId: null } });
  assert.deepEqual(
    (await imported(one.record.id)).map((lead) => lead.ownerId),
    [member.id],
  );
  assert.equal((await db().assignmentRule.findUniqueOrThrow({ where: { id: ruleId } })).turn, 3);
  assert.equal(await intakeOwner(team.id), owner.id);
});

test("rules: each row by the rules of its batch; the team's fallback for rows no rule matches; intake leads meanwhile share the rotation", async () => {
  const { team, owner, admin, member, other } = await makeTeam();
  await addRule(team.id, owner.id, {
    userIds: [admin.id, member.id],
    conditions: [{ field: "utm_source", op: "equals", values: ["ads"] }],
  });
  assert.ok((await setRoutingFallback({ teamId: team.id, userId: other.id, actor: actorOf(owner) })).ok);
  // More rows than a busy batch, and create_lead meanwhile: the import takes turns batch by batch.
  const rows = Array.from({ length: BUSY_BATCH_ROWS * 3 }, (_, i) => `Person ${i},r${i}@example.com,${i % 3 ? "ads" : "mail"}`);
  const { record } = await upload(team.id, csv(rows));
  const creating = Promise.all(Array.from({ length: 40 }, () => intakeOwner(team.id, "ads")));
  await run(record, { assign: { mode: "rules", userId: null } });
  const intake = await creating;

  const owners = (await imported(record.id)).map((lead) => lead.ownerId);
  assert.deepEqual(
    owners.filter((_, index) => index % 3 === 0),
    rows.filter((_, index) => index % 3 === 0).map(() => other.id),
    "rows no rule matches go to the team's fallback",
  );
  // The rule's leads, imported and from the intake, share one rotation: 200 + 40, 120 each.
  const rotated = [...owners.filter((_, index) => index % 3 !== 0), ...intake];
  assert.deepEqual(
    [admin.id, member.id].map((id) => rotated.filter((ownerId) => ownerId === id).length),
    [120, 120],
  );
});

test("a member removed before the batch runs: the leads stay unassigned; updated duplicates keep their owner, skipped rows get none", async () => {
  const { team, owner, admin, member } = await makeTeam();
  const { record } = await upload(team.id, csv(people(2)));
  assert.deepEqual(
    await startImport({
      record,
      mapping: ["name", "email", "utm_source"],
      duplicates: "create",
      sourceId: null,
      assign: { mode: "member", userId: member.id },
      actor,
    }),
    { ok: true },
  );
  await changeMembership({ teamId: team.id, userId: member.id, role: null, actor: actorOf(owner) });
  const done = await finish(record);
  assert.equal(done.status, "done");
  assert.deepEqual(
    (await imported(record.id)).map((lead) => lead.ownerId),
    [null, null],
  );

  // Duplicates: row 1 fills the first lead (owned by the admin now), row 2 is skipped, row 3 is new.
  const existing = (await imported(record.id))[0]!;
  await db().lead.update({ where: { id: existing.id }, data: { ownerId: admin.id, assignedAt: new Date(0) } });
  const again = await upload(team.id, csv(["Person 0,p0@example.com,filled", "Person 1,p1@example.com,", "New,new@example.com,"]));
  const updated = await run(again.record, { duplicates: "update", assign: { mode: "member", userId: owner.id } });
  assert.deepEqual([updated.createdCount, updated.updatedCount, updated.skippedCount], [1, 1, 1]);
  const filled = await db().lead.findUniqueOrThrow({ where: { id: existing.id } });
  assert.deepEqual([filled.utmSource, filled.ownerId, filled.assignedAt?.getTime()], ["filled", admin.id, 0]);
  assert.equal((await db().lead.findUniqueOrThrow({ where: { id: (await imported(record.id))[1]!.id } })).ownerId, null);
  assert.deepEqual(
    (await imported(again.record.id)).map((lead) => lead.ownerId),
    [owner.id],
  );
});

if (database.provider === "postgres")
  test("PostgreSQL: a batch that fills a duplicate takes the lead writers' lock before its row, as a repeat submission's batch does, so the two queue instead of deadlocking", async () => {
    const { team, owner, admin } = await makeTeam();
    await addRule(team.id, owner.id, { userIds: [owner.id, admin.id] });
    const ada = await createLead({
      team: { id: team.id, defaultPhoneCountry: null },
      apiKeyId: null,
      input: { extraFields: {}, name: "Ada Lovelace", email: "ada@example.com" },
    });
    // Row 1 fills Ada's lead (its row locked); row 2 is new and takes the round robin's turn (the lead writers' lock, then the rule).
    const { record, proposed } = await upload(team.id, csv(["Ada Lovelace,ada@example.com,fair", "Bob New,bob@example.com,"]));
    const assign = { mode: "rules", userId: null } as const;
    assert.deepEqual(await startImport({ record, mapping: proposed, duplicates: "update", sourceId: null, assign, actor }), { ok: true });
    const lease = { workerId: "lock-order", leaseMs: 60_000 };
    const job = (await claimJobById({ id: (await importJobId(record.id))!, ...lease, now: new Date() }))!;
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    // Ada submits again, by hand: her batch's first locks (batchLocksSql: the lead writers' lock among them), then, once the
    // import's batch waits for one of them, her lead's row, as the join reads it (FOR UPDATE). Were the import's batch
    // holding that row by then (its fill before the lock), each would wait for the other: PostgreSQL ends one with a
    // deadlock error after a second.
    const repeat = await d.pool.connect();
    const write = { lead: { teamId: team.id, email: "ada@example.com" }, repeat: { since: new Date(0) }, source: {}, events: {} };
    try {
      await repeat.query(`BEGIN;${batchLocksSql([write as unknown as LeadWrite])}`);
      const importing = runImport({ importId: record.id, job, lease });
      await untilOneWaitsOnLock(d.pool);
      await repeat.query(`SELECT 1 FROM "Lead" WHERE "id" = $1 FOR UPDATE`, [ada.leadId]);
      await repeat.query("COMMIT");
      assert.deepEqual(await importing, { ok: true });
    } finally {
      await repeat.query("ROLLBACK").catch(() => undefined);
      repeat.release();
    }
    const done = (await findImport(team.id, record.id))!;
    assert.deepEqual([done.status, done.createdCount, done.updatedCount], ["done", 1, 1]);
    assert.equal((await db().lead.findUniqueOrThrow({ where: { id: ada.leadId } })).utmSource, "fair");
    assert.deepEqual(
      (await imported(record.id)).map((lead) => lead.ownerId !== null),
      [true],
      "Bob's lead took the round robin's turn",
    );
  });

test("refused at the start: a member who is none of the team's, no member, rules that assign nobody", async () => {
  const { team, owner } = await makeTeam();
  const stranger = await makeUser("Stranger");
  const elsewhere = await makeTeam();
  await addMember({ teamId: elsewhere.team.id, userId: stranger.id, role: "member" });
  const { record, proposed } = await upload(team.id, csv(people(1)));
  const start = (assign: Parameters<typeof startImport>[0]["assign"]) =>
    startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, assign, actor });
  const notMember = { ok: false, error: "Choose a member of the team to assign the imported leads to." };
  assert.deepEqual(await start({ mode: "member", userId: stranger.id }), notMember);
  assert.deepEqual(await start({ mode: "member", userId: elsewhere.owner.id }), notMember);
  assert.deepEqual(await start({ mode: "member", userId: null }), notMember);
  assert.equal((await findImport(team.id, record.id))!.status, "draft", "nothing was started");

  assert.deepEqual(await assignmentOptions(team.id).then((options) => options.rules), false);
  const rules = await start({ mode: "rules", userId: null });
  assert.equal(rules.ok, false);
  await addRule(team.id, owner.id, { userIds: [owner.id], enabled: false });
  assert.equal((await assignmentOptions(team.id)).rules, false, "a disabled rule assigns nobody");
  await addRule(team.id, owner.id, { userIds: [owner.id] });
  const options = await assignmentOptions(team.id);
  assert.equal(options.rules, true);
  assert.ok(options.members.some((m) => m.id === owner.id && m.label === `Olive Owner (${owner.email})`));
  assert.deepEqual(await start({ mode: "rules", userId: null }), { ok: true });
  assert.deepEqual(
    [(await findImport(team.id, record.id))!.assignMode, (await findImport(team.id, record.id))!.assignUserId],
    ["rules", null],
  );
});
