import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createLead } from "../leads/create-lead";
import { actorOf, makeTeam, makeUser } from "../leads/lead-ownership.fixtures";
import { parseLeadInput } from "../leads/parse-lead-input";
import { changeMembership } from "../teams/membership-changes";
import { addMember } from "../teams/team-store";
import { setAvailability } from "../users/availability-store";
import { leadCreatedEventSchema } from "../webhooks/lead-created-event";
import { createEndpoint } from "../webhooks/webhook-endpoint-changes";
import { saveRule, setRoutingFallback, type RuleInput } from "./assignment-rules";

// Assignment at intake (lib/routing/intake-assignment.ts through the lead writer), on the
// database: a new lead gets the owner the first matching rule gives it, in its own
// transaction, whatever channel it came through; a round robin is fair under concurrent
// creates and a rolled-back lead takes no turn; a change of the rules, of a member's
// availability or of the team's members is seen by the very next lead (the cached routing
// is read again when the team's routingVersion moves).

await useTestDatabase();

type Lead = Parameters<typeof createLead>[0];

async function create(teamId: string, fields: [string, unknown][], extra: Partial<Lead> = {}) {
  const input = parseLeadInput([["name", "Grace Hopper"], ...fields]);
  const { leadId } = await createLead({ team: { id: teamId, defaultPhoneCountry: "GB" }, apiKeyId: null, input, ...extra });
  return db().lead.findUniqueOrThrow({ where: { id: leadId }, select: { id: true, ownerId: true, assignedAt: true, createdAt: true } });
}

const rule = (input: Partial<RuleInput> & Pick<RuleInput, "userIds">): RuleInput => ({
  name: "Rule",
  enabled: true,
  conditions: [],
  mode: input.userIds.length > 1 ? "round_robin" : "member",
  fallbackUserId: null,
  ...input,
});

async function addRule(teamId: string, actorId: string, input: RuleInput): Promise<string> {
  const saved = await saveRule({ teamId, input, actor: actorOf({ id: actorId }) });
  assert.ok(saved.ok, saved.ok ? "" : saved.error);
  return saved.ruleId;
}

/** A team with four members (owner, admin, two members) and `extra` more members. */
async function routedTeam() {
  const people = await makeTeam();
  return { ...people, everyone: [people.owner, people.admin, people.member, people.other].map((person) => person.id) };
}

describe("assignment at intake", () => {
  test("a lead gets the owner of the first rule it matches, with the time it was assigned; others stay unassigned", async () => {
    const { team, owner, admin, member } = await routedTeam();
    const google = { field: "utm_source", op: "equals" as const, values: ["google"] };
    await addRule(
      team.id,
      owner.id,
      rule({ name: "UK", conditions: [google, { field: "phone_country", op: "one_of", values: ["+44"] }], userIds: [admin.id] }),
    );
    await addRule(team.id, owner.id, rule({ name: "Google", conditions: [google], userIds: [member.id] }));
    const uk = await create(team.id, [
      ["utm_source", "Google"],
      ["phone", "020 7946 0018"],
    ]);
    assert.equal(uk.ownerId, admin.id);
    assert.equal(uk.assignedAt?.getTime(), uk.createdAt.getTime());
    assert.equal(
      (
        await create(team.id, [
          ["utm_source", "google"],
          ["phone", "+1 415 555 0100"],
        ])
      ).ownerId,
      member.id,
    );
    const none = await create(team.id, [["utm_source", "bing"]]);
    assert.equal(none.ownerId, null);
    assert.equal(none.assignedAt, null);
  });

  test("conditions on the channel: the web form, the connection, the API key and the source", async () => {
    const { team, owner, admin, member, other } = await routedTeam();
    await addRule(team.id, owner.id, rule({ conditions: [{ field: "web_form", op: "one_of", values: ["form-a"] }], userIds: [admin.id] }));
    await addRule(
      team.id,
      owner.id,
      rule({ conditions: [{ field: "connection", op: "one_of", values: ["conn-a"] }], userIds: [member.id] }),
    );
    await addRule(team.id, owner.id, rule({ conditions: [{ field: "api_key", op: "one_of", values: ["key-a"] }], userIds: [other.id] }));
    assert.equal((await create(team.id, [], { formId: "form-a" })).ownerId, admin.id);
    assert.equal((await create(team.id, [], { connectionId: "conn-a" })).ownerId, member.id);
    assert.equal((await create(team.id, [], { apiKeyId: "key-a" })).ownerId, other.id);
    assert.equal((await create(team.id, [], { apiKeyId: "key-b" })).ownerId, null);
    const source = await db().leadSource.create({ data: { teamId: team.id, name: "Ads", nameKey: "ads" } });
    await addRule(team.id, owner.id, rule({ conditions: [{ field: "source", op: "one_of", values: [source.id] }], userIds: [owner.id] }));
    assert.equal((await create(team.id, [["source", "ADS"]])).ownerId, owner.id);
  });

  test("the lead.created event names the owner the lead got", async () => {
    const { team, owner, member } = await routedTeam();
    await createEndpoint({
      teamId: team.id,
      url: "https://hooks.example.com/in",
      description: null,
      events: ["lead.created"],
      actor: actorOf(owner),
    });
    await addRule(team.id, owner.id, rule({ userIds: [member.id] }));
    const created = await create(team.id, []);
    const job = await db().job.findFirstOrThrow({ where: { teamId: team.id, eventType: "lead.created" } });
    const event = leadCreatedEventSchema.parse(JSON.parse(job.payload));
    assert.equal(event.data.lead.id, created.id);
    assert.deepEqual(event.data.lead.owner, { id: member.id, email: member.email, name: member.name });
  });

  test("a round robin over four members gives 100 concurrent leads exactly 25 each", async () => {
    const { team, owner, everyone } = await routedTeam();
    await addRule(team.id, owner.id, rule({ userIds: everyone }));
    const leads = await Promise.all(Array.from({ length: 100 }, () => create(team.id, [])));
    const counts = new Map<string, number>();
    for (const lead of leads) counts.set(lead.ownerId!, (counts.get(lead.ownerId!) ?? 0) + 1);
    assert.deepEqual([...counts.values()], [25, 25, 25, 25]);
    assert.deepEqual(new Set(counts.keys()), new Set(everyone));
    // In id order (the order they were written), the turns follow the rule's order.
    const inOrder = [...leads].sort((a, b) => (a.id < b.id ? -1 : 1)).map((lead) => everyone.indexOf(lead.ownerId!));
    for (let i = 1; i < inOrder.length; i++) assert.equal(inOrder[i], (inOrder[i - 1]! + 1) % 4);
  });

  test("a rolled-back create takes no turn", async () => {
    const { team, owner, admin } = await routedTeam();
    await addRule(team.id, owner.id, rule({ userIds: [owner.id, admin.id] }));
    assert.equal((await create(team.id, [])).ownerId, owner.id);
    const spent = { id: "challenge-spent", expiresAt: new Date(Date.now() + 60_000) };
    await db().spentChallenge.create({ data: spent });
    const replayed = new Error("replayed");
    await assert.rejects(create(team.id, [], { spentChallenge: { ...spent, replayed: () => replayed } }), replayed);
    assert.equal((await create(team.id, [])).ownerId, admin.id, "the rolled-back lead's turn is still the admin's");
  });

  test("the next lead follows a changed rule, a member's availability and the team's members at once", async () => {
    const { team, owner, admin, member } = await routedTeam();
    const ruleId = await addRule(team.id, owner.id, rule({ userIds: [admin.id] }));
    assert.equal((await create(team.id, [])).ownerId, admin.id);
    const saved = await saveRule({ teamId: team.id, ruleId, input: rule({ userIds: [member.id] }), actor: actorOf(owner) });
    assert.ok(saved.ok);
    assert.equal((await create(team.id, [])).ownerId, member.id);
    // Away (the account page's store bumps the member's teams' routing versions), then back.
    assert.ok(await setAvailability(member.id, { away: true, awayUntil: null, workingHours: null }));
    assert.equal((await create(team.id, [])).ownerId, null);
    assert.ok(await setAvailability(member.id, { away: true, awayUntil: new Date(Date.now() - 1000), workingHours: null }));
    assert.equal((await create(team.id, [])).ownerId, member.id, "an away member whose return date passed is back");
    await changeMembership({ teamId: team.id, userId: member.id, role: null, actor: actorOf(owner) });
    assert.equal((await create(team.id, [])).ownerId, null, "a member who left gets nothing");
  });

  test("a lead no rule matches goes to the team's fallback member; a disabled rule never matches", async () => {
    const { team, owner, admin, member } = await routedTeam();
    await addRule(team.id, owner.id, rule({ enabled: false, userIds: [admin.id] }));
    assert.equal((await create(team.id, [])).ownerId, null);
    assert.ok((await setRoutingFallback({ teamId: team.id, userId: member.id, actor: actorOf(owner) })).ok);
    assert.equal((await create(team.id, [])).ownerId, member.id);
  });

  test("a rule naming someone who is not a member is refused; a team's routing never reaches another team", async () => {
    const { team, owner } = await routedTeam();
    const stranger = await makeUser("Stranger");
    const refused = await saveRule({ teamId: team.id, input: rule({ userIds: [stranger.id] }), actor: actorOf(owner) });
    assert.deepEqual(refused, { ok: false, error: "Every member a rule names must be a member of the team." });
    const second = await routedTeam();
    await addMember({ teamId: second.team.id, userId: owner.id, role: "member" });
    await addRule(team.id, owner.id, rule({ userIds: [owner.id] }));
    assert.equal((await create(second.team.id, [])).ownerId, null);
    assert.equal((await create(team.id, [])).ownerId, owner.id);
  });

  test("members off duty on their own clocks are skipped, by the app's clock: zones, midnight and a DST change", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "routing-clock-"));
    const clock = path.join(dir, "now");
    process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clock;
    after(() => {
      delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE;
      rmSync(dir, { recursive: true, force: true });
    });
    const { team, owner, admin, member } = await routedTeam();
    const days = [1, 2, 3, 4, 5, 6, 7];
    await setAvailability(admin.id, {
      away: false,
      awayUntil: null,
      workingHours: { timeZone: "Europe/Berlin", days, start: "09:00", end: "17:00" },
    });
    await setAvailability(member.id, {
      away: false,
      awayUntil: null,
      workingHours: { timeZone: "America/New_York", days, start: "22:00", end: "06:00" },
    });
    await addRule(team.id, owner.id, rule({ userIds: [admin.id, member.id], fallbackUserId: owner.id }));
    const at = async (instant: string) => {
      writeFileSync(clock, instant);
      const created = await create(team.id, []);
      assert.equal(created.createdAt.toISOString(), instant, "the lead is created at the app's clock");
      return created.ownerId;
    };
    // Wednesday 10:00 UTC: Berlin 11:00 (on), New York 05:00 (the night shift from Tuesday 22:00: on).
    assert.equal(await at("2026-11-25T10:00:00.000Z"), admin.id);
    assert.equal(await at("2026-11-25T10:00:01.000Z"), member.id);
    // 12:00 UTC: New York 07:00, its shift over: Berlin every time.
    assert.equal(await at("2026-11-25T12:00:00.000Z"), admin.id);
    assert.equal(await at("2026-11-25T12:00:01.000Z"), admin.id);
    // 20:00 UTC: Berlin 21:00 and New York 15:00, both off: the rule's fallback.
    assert.equal(await at("2026-11-25T20:00:00.000Z"), owner.id);
    // Across midnight in New York: Thursday 04:00 UTC is 23:00 Wednesday there (on), Berlin 05:00 (off).
    assert.equal(await at("2026-11-26T04:00:00.000Z"), member.id);
    // Berlin's clocks go forward on 2026-03-29: 07:30 UTC is 09:30 there (on; read as winter
    // time, 08:30, it would be off and New York's night shift, 03:30 EDT, would get it).
    assert.equal(await at("2026-03-29T07:30:00.000Z"), admin.id);
    // The day before, 07:30 UTC is 08:30 in Berlin: off; New York's 03:30 is on.
    assert.equal(await at("2026-03-28T07:30:00.000Z"), member.id);
  });
});
