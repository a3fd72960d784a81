import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { untilOneWaitsOnLock } from "../../test/support/lock-waits";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { driver } from "../db/driver";
import { nextLeadNumbersSql } from "../leads/lead-number-store";
import type { LeadWrite } from "../leads/lead-write";
import { batchLocksSql } from "../leads/lead-writer-postgres";
import { actorOf, makeTeam } from "../leads/lead-ownership.fixtures";
import { changeMembership } from "../teams/membership-changes";
import { setAvailability } from "../users/availability-store";
import { saveRule, setRoutingFallback, type RuleInput } from "./assignment-rules";
import { batchAssignment, batchOwners, RoutingMovedError, type BatchAssignment } from "./import-assignment";
import type { RoutedLead } from "./rule-conditions";

// An import batch's owners (lib/routing/import-assignment.ts) inside a transaction of its own,
// on the database: a round robin's turns taken in order from the rule's stored turn and
// written back (none when the transaction rolls back), members away skipped, the team's
// fallback for leads no rule matches, "member" only while they are one, and a routing that
// changed since it was read refused. The import job's use of it is
// lib/imports/lead-import-assignment.test.ts.

const database = await useTestDatabase();

const lead = (utmSource: string | null = null): RoutedLead => ({
  sourceId: "",
  formId: null,
  connectionId: null,
  apiKeyId: null,
  firstName: "Ada",
  lastName: null,
  email: null,
  organization: "Ada",
  jobTitle: null,
  website: null,
  territory: null,
  industry: null,
  annualRevenue: null,
  noOfEmployees: null,
  utmSource,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  phoneCountryCode: null,
  mobileCountryCode: null,
  extraFields: {},
});

async function addRule(teamId: string, actorId: string, input: Partial<RuleInput> & Pick<RuleInput, "userIds">): Promise<string> {
  const saved = await saveRule({
    teamId,
    input: { name: "Rule", enabled: true, conditions: [], mode: "round_robin", fallbackUserId: null, ...input },
    actor: actorOf({ id: actorId }),
  });
  assert.ok(saved.ok, saved.ok ? "" : saved.error);
  return saved.ruleId;
}

const turnOf = async (ruleId: string) => (await db().assignmentRule.findUniqueOrThrow({ where: { id: ruleId } })).turn;

const owners = (teamId: string, assignment: BatchAssignment, leads: readonly RoutedLead[]) =>
  db().$transaction((tx) => batchOwners(tx, { teamId, assignment, leads, now: new Date() }));

describe("an import batch's owners", () => {
  test("a round robin takes turns in file order from the rule's stored turn, skipping members away; other leads go to the fallback", async () => {
    // Any rotation (2–4 members, in any order), any stored turn, any members away, any mix of
    // leads the rule matches and leads for the team's fallback (or nobody).
    const scenario = fc.record({
      order: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 2 }),
      turn: fc.nat(20),
      away: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      leads: fc.array(fc.boolean(), { maxLength: 40 }),
      fallback: fc.option(fc.nat(3), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ order, turn, away, leads, fallback }) => {
        const { team, owner, admin, member, other } = await makeTeam();
        const people = [owner, admin, member, other].map((person) => person.id);
        const userIds = order.map((index) => people[index]!);
        const conditions = [{ field: "utm_source", op: "equals" as const, values: ["rr"] }];
        const ruleId = await addRule(team.id, owner.id, { userIds, conditions });
        await db().assignmentRule.update({ where: { id: ruleId }, data: { turn } });
        for (const [index, isAway] of away.entries()) {
          if (isAway) await setAvailability(people[index]!, { away: true, awayUntil: null, workingHours: null });
        }
        if (fallback !== null) await setRoutingFallback({ teamId: team.id, userId: people[fallback]!, actor: actorOf(owner) });

        const got = await owners(
          team.id,
          await batchAssignment(team.id, { mode: "rules", userId: null }),
          leads.map((matches) => lead(matches ? "rr" : "other")),
        );

        // The rotation, walked one lead at a time: the next member on duty from the turn.
        const onDuty = userIds.map((id) => !away[people.indexOf(id)]);
        let position = turn % userIds.length;
        const expected = leads.map((matches) => {
          if (!matches) return fallback === null ? null : people[fallback]!;
          if (!onDuty.some(Boolean)) return null;
          while (!onDuty[position % userIds.length]) position++;
          const chosen = userIds[position % userIds.length]!;
          position = (position % userIds.length) + 1;
          return chosen;
        });
        assert.deepEqual(got, expected);
        const turns = leads.some(Boolean) && onDuty.some(Boolean);
        assert.equal(await turnOf(ruleId), turns ? position : turn, "the rule's turn is where the rotation stopped");
      }),
      { numRuns: 15 },
    );
  });

  test("a rolled-back batch takes no turn", async () => {
    const { team, owner, admin, member } = await makeTeam();
    const ruleId = await addRule(team.id, owner.id, { userIds: [owner.id, admin.id, member.id] });
    const assignment = await batchAssignment(team.id, { mode: "rules", userId: null });
    const failure = new Error("the batch failed");
    await assert.rejects(
      db().$transaction(async (tx) => {
        assert.deepEqual(await batchOwners(tx, { teamId: team.id, assignment, leads: [lead(), lead()], now: new Date() }), [
          owner.id,
          admin.id,
        ]);
        throw failure;
      }),
      failure,
    );
    assert.equal(await turnOf(ruleId), 0);
    assert.deepEqual(await owners(team.id, assignment, [lead()]), [owner.id], "the rotation starts where it was");
  });

  test("a routing changed since the batch read it is refused; read again, it applies", async () => {
    const { team, owner, admin, member } = await makeTeam();
    const ruleId = await addRule(team.id, owner.id, { userIds: [admin.id], mode: "member" });
    const stale = await batchAssignment(team.id, { mode: "rules", userId: null });
    const saved = await saveRule({
      teamId: team.id,
      ruleId,
      input: { name: "Rule", enabled: true, conditions: [], mode: "member", userIds: [member.id], fallbackUserId: null },
      actor: actorOf(owner),
    });
    assert.ok(saved.ok);
    await assert.rejects(owners(team.id, stale, [lead()]), RoutingMovedError);
    assert.deepEqual(await owners(team.id, await batchAssignment(team.id, { mode: "rules", userId: null }), [lead()]), [member.id]);
  });

  test('"member": every lead to the member while they are one; "none" and a team without rules: nobody', async () => {
    const { team, owner, member } = await makeTeam();
    const all = await batchAssignment(team.id, { mode: "member", userId: member.id });
    assert.deepEqual(await owners(team.id, all, [lead(), lead("x")]), [member.id, member.id]);
    assert.deepEqual(await owners(team.id, await batchAssignment(team.id, { mode: "none", userId: null }), [lead()]), [null]);
    assert.deepEqual(await owners(team.id, await batchAssignment(team.id, { mode: "rules", userId: null }), [lead()]), [null]);
    await changeMembership({ teamId: team.id, userId: member.id, role: null, actor: actorOf(owner) });
    assert.deepEqual(await owners(team.id, all, [lead(), lead()]), [null, null]);
  });

  if (database.provider === "postgres")
    test("PostgreSQL: a batch takes its rules in the order the intake's batches take them (batchLocksSql), so the two queue instead of deadlocking", async () => {
      const { team, owner, admin } = await makeTeam();
      const ruleId = await addRule(team.id, owner.id, { userIds: [owner.id, admin.id] });
      const assignment = await batchAssignment(team.id, { mode: "rules", userId: null });
      const d = await driver();
      assert.equal(d.provider, "postgres");
      if (d.provider !== "postgres") return;
      // An intake's batch, by hand: its first locks (the team's rules among them), then (once the import's batch waits) a turn.
      const intake = await d.pool.connect();
      const write = { lead: { teamId: team.id }, source: { requested: undefined }, events: {}, now: new Date() } as unknown as LeadWrite;
      try {
        await intake.query(`BEGIN;${batchLocksSql([write])}`);
        const batch = db().$transaction(async (tx) => {
          const owners = await batchOwners(tx, { teamId: team.id, assignment, leads: [lead()], now: new Date() });
          await tx.$queryRawUnsafe(nextLeadNumbersSql("1"));
          return owners;
        });
        await untilOneWaitsOnLock(intake);
        await intake.query(`UPDATE "AssignmentRule" SET "turn" = 1 WHERE "id" = $1`, [ruleId]);
        await intake.query("COMMIT");
        assert.deepEqual(await batch, [admin.id], "the batch took the turn after the intake's");
      } finally {
        intake.release();
      }
      assert.equal(await turnOf(ruleId), 2);
    });
});
