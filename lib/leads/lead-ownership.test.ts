import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR } from "../audit/audit-log";
import { db } from "../db/client";
import { assignLeads, MAX_LEADS_PER_CHANGE, setLeadStatus } from "./lead-ownership";
import { actorOf, auditTrail, lead, makeTeam, makeUser, row } from "./lead-ownership.fixtures";
import type { LeadStatus } from "./lead-status";

// A lead's status and owner (lib/leads/lead-ownership.ts): who may change what, what is
// stored (first contact once, assignment time), and the audit event of every changed lead.
// Their lead.updated deliveries and a removed member's leads: lead-ownership-events.test.ts.

await useTestDatabase();

/** A lead as created: New, unassigned, never contacted. */
const untouched = { status: "new", ownerId: null, assignedAt: null, firstContactedAt: null };

describe("status", () => {
  test("a member changes any lead's status, even one another member owns; each change is audited with from and to", async () => {
    const { team, member, other } = await makeTeam();
    const trail = auditTrail(team.id);
    const owned = await lead(team.id);
    await assignLeads({ teamId: team.id, leadIds: [owned], ownerId: other.id, actor: actorOf(other) });
    await trail();
    assert.deepEqual(await setLeadStatus({ teamId: team.id, leadIds: [owned], status: "contacted", actor: actorOf(member) }), {
      ok: true,
      changed: [{ leadId: owned, from: "new", to: "contacted" }],
    });
    assert.equal((await row(owned)).status, "contacted");
    assert.deepEqual(await trail(), [["lead.status_changed", member.id, owned, { from: "new", to: "contacted" }]]);
    // The status it already has: nothing changes, nothing is recorded.
    assert.deepEqual(await setLeadStatus({ teamId: team.id, leadIds: [owned], status: "contacted", actor: actorOf(member) }), {
      ok: true,
      changed: [],
    });
    assert.deepEqual(await trail(), []);
  });

  test("the first change away from New records the first contact, which later changes never move", async () => {
    const { team, member } = await makeTeam();
    const id = await lead(team.id);
    const change = (status: LeadStatus) => setLeadStatus({ teamId: team.id, leadIds: [id], status, actor: actorOf(member) });
    assert.equal((await row(id)).firstContactedAt, null, "a new lead was never contacted");
    await change("nurture");
    const first = (await row(id)).firstContactedAt;
    assert.ok(first instanceof Date);
    for (const status of ["qualified", "new", "contacted", "junk"] as const) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await change(status);
      assert.deepEqual((await row(id)).firstContactedAt, first, `after ${status}`);
    }
    assert.equal((await row(id)).status, "junk");
  });

  test("an unknown status, an empty or oversized selection, and a member's bulk change are refused", async () => {
    const { team, member, admin } = await makeTeam();
    const [a, b] = [await lead(team.id), await lead(team.id)];
    const trail = auditTrail(team.id);
    const set = (leadIds: string[], status: string, actor = actorOf(member)) =>
      setLeadStatus({ teamId: team.id, leadIds, status: status as LeadStatus, actor });
    assert.deepEqual(await set([a], "won"), { ok: false, error: "Choose a status." });
    assert.deepEqual(await set([], "junk"), { ok: false, error: "Choose at least one lead." });
    const tooMany = Array.from({ length: MAX_LEADS_PER_CHANGE + 1 }, (_, i) => `CRM-LEAD-${String(90000 + i)}`);
    assert.deepEqual(await set(tooMany, "junk", actorOf(admin)), {
      ok: false,
      error: `At most ${MAX_LEADS_PER_CHANGE} leads can be changed at once.`,
    });
    assert.deepEqual(await set([a, b], "junk"), { ok: false, error: "Only owners and admins change several leads at once." });
    assert.deepEqual([await row(a), await row(b)], [untouched, untouched]);
    assert.deepEqual(await trail(), []);
    const bulk = await set([b, a, a], "junk", actorOf(admin));
    assert.deepEqual(bulk, {
      ok: true,
      changed: [a, b].sort().map((leadId) => ({ leadId, from: "new", to: "junk" })),
    });
    assert.equal((await trail()).length, 2, "one audit event per lead");
  });

  test("another team's lead, or someone outside the team, changes nothing", async () => {
    const { team, owner, member } = await makeTeam();
    const foreign = await makeTeam();
    const [mine, theirs] = [await lead(team.id), await lead(foreign.team.id)];
    const refused = await setLeadStatus({ teamId: team.id, leadIds: [theirs], status: "junk", actor: actorOf(member) });
    assert.equal(refused.ok, false);
    // A forged call naming the other team: its member is no member of this team.
    const outsider = await setLeadStatus({ teamId: foreign.team.id, leadIds: [theirs], status: "junk", actor: actorOf(member) });
    assert.deepEqual(outsider, { ok: false, error: "You are not a member of this team." });
    const mixed = await setLeadStatus({ teamId: team.id, leadIds: [mine, theirs], status: "junk", actor: actorOf(owner) });
    assert.equal(mixed.ok, false);
    assert.deepEqual([(await row(mine)).status, (await row(theirs)).status], ["new", "new"]);
    assert.equal(await db().auditEvent.count({ where: { action: "lead.status_changed", targetId: { in: [mine, theirs] } } }), 0);
  });
});

describe("owner", () => {
  test("a member takes an unassigned lead for themself: owner, assignment time and audit event", async () => {
    const { team, member } = await makeTeam();
    const id = await lead(team.id);
    const trail = auditTrail(team.id);
    const before = Date.now();
    assert.deepEqual(await assignLeads({ teamId: team.id, leadIds: [id], ownerId: member.id, actor: actorOf(member) }), {
      ok: true,
      changed: [{ leadId: id, from: null, to: member.id }],
    });
    const stored = await row(id);
    assert.equal(stored.ownerId, member.id);
    assert.ok(stored.assignedAt && stored.assignedAt.getTime() >= before - 1000);
    assert.equal(stored.status, "new", "taking a lead is no contact");
    assert.deepEqual(await trail(), [["lead.assigned", member.id, id, { from: null, to: member.id }]]);
  });

  test("a member may not assign others, take an assigned lead, unassign, or change several leads", async () => {
    const { team, member, other } = await makeTeam();
    const [free, taken, second] = [await lead(team.id), await lead(team.id), await lead(team.id)];
    await assignLeads({ teamId: team.id, leadIds: [taken], ownerId: other.id, actor: actorOf(other) });
    const trail = auditTrail(team.id);
    await trail();
    const assign = (leadIds: string[], ownerId: string | null) =>
      assignLeads({ teamId: team.id, leadIds, ownerId, actor: actorOf(member) });
    const refusals = [
      await assign([free], other.id),
      await assign([taken], member.id),
      await assign([taken], null),
      await assign([free], null),
      await assign([free, second], member.id),
    ];
    assert.deepEqual(
      refusals.map((result) => (result.ok ? "changed" : result.error)),
      [
        "Members can take a lead only for themselves; owners and admins assign leads to others.",
        "This lead is already assigned; only owners and admins reassign leads.",
        "Only owners and admins unassign leads.",
        "Only owners and admins unassign leads.",
        "Only owners and admins change several leads at once.",
      ],
    );
    assert.deepEqual([(await row(free)).ownerId, (await row(taken)).ownerId, (await row(second)).ownerId], [null, other.id, null]);
    assert.deepEqual(await trail(), []);
  });

  test("owners and admins assign anyone's leads to any member or to no one, several at once", async () => {
    const { team, owner, admin, member, other } = await makeTeam();
    const [a, b] = [await lead(team.id), await lead(team.id)];
    await assignLeads({ teamId: team.id, leadIds: [a], ownerId: other.id, actor: actorOf(other) });
    const trail = auditTrail(team.id);
    await trail();
    const moved = await assignLeads({ teamId: team.id, leadIds: [a, b], ownerId: member.id, actor: actorOf(admin) });
    assert.deepEqual(moved.ok && moved.changed.map((change) => [change.leadId, change.from, change.to]), [
      [a, other.id, member.id],
      [b, null, member.id],
    ]);
    assert.deepEqual(await trail(), [
      ["lead.assigned", admin.id, a, { from: other.id, to: member.id }],
      ["lead.assigned", admin.id, b, { from: null, to: member.id }],
    ]);
    const released = await assignLeads({ teamId: team.id, leadIds: [a], ownerId: null, actor: actorOf(owner) });
    assert.deepEqual(released, { ok: true, changed: [{ leadId: a, from: member.id, to: null }] });
    assert.deepEqual(await row(a), untouched);
    assert.deepEqual(await trail(), [["lead.assigned", owner.id, a, { from: member.id, to: null }]]);
    // The operator's command line acts as an owner.
    assert.equal((await assignLeads({ teamId: team.id, leadIds: [a], ownerId: admin.id, actor: CLI_ACTOR })).ok, true);
  });

  test("the owner must be a member of the team: another team's member or a stranger is refused", async () => {
    const { team, admin } = await makeTeam();
    const foreign = await makeTeam();
    const stranger = await makeUser();
    const id = await lead(team.id);
    for (const ownerId of [foreign.member.id, stranger.id, "no-such-user"]) {
      assert.deepEqual(await assignLeads({ teamId: team.id, leadIds: [id], ownerId, actor: actorOf(admin) }), {
        ok: false,
        error: "That user is not a member of this team.",
      });
    }
    const theirs = await lead(foreign.team.id);
    assert.equal((await assignLeads({ teamId: team.id, leadIds: [theirs], ownerId: admin.id, actor: actorOf(admin) })).ok, false);
    assert.equal((await row(theirs)).ownerId, null);
    assert.equal((await row(id)).ownerId, null);
  });

  test("two members taking the same lead at once: one gets it, the other is refused", async () => {
    for (let round = 0; round < 5; round++) {
      const { team, member, other } = await makeTeam();
      const id = await lead(team.id);
      const results = await Promise.all(
        [member, other].map((user) => assignLeads({ teamId: team.id, leadIds: [id], ownerId: user.id, actor: actorOf(user) })),
      );
      assert.deepEqual(results.map((result) => result.ok).sort(), [false, true]);
      const winner = results[0]!.ok ? member : other;
      assert.equal((await row(id)).ownerId, winner.id);
      assert.equal(await db().auditEvent.count({ where: { teamId: team.id, action: "lead.assigned" } }), 1);
    }
  });

  test("a deleted user's leads become unassigned (the owner's foreign key)", async () => {
    const { team, admin, other } = await makeTeam();
    const id = await lead(team.id);
    await assignLeads({ teamId: team.id, leadIds: [id], ownerId: other.id, actor: actorOf(admin) });
    await db().user.delete({ where: { id: other.id } });
    assert.equal((await row(id)).ownerId, null);
  });
});
