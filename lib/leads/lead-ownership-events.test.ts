import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { changeMembership, LastOwnerError } from "../teams/membership-changes";
import { addMember } from "../teams/team-store";
import { leadUpdatedEventSchema } from "../webhooks/lead-updated-event";
import { addEndpoint } from "../webhooks/webhook-admin";
import { createEndpoint } from "../webhooks/webhook-endpoint-changes";
import { assignLeads, setLeadStatus } from "./lead-ownership";
import { actorOf, auditTrail, lead, makeTeam, row } from "./lead-ownership.fixtures";

// What a lead's status or owner change sets off (lib/leads/lead-ownership.ts): a lead.updated
// delivery per changed lead and subscribed endpoint, in the change's transaction, naming only
// what changed; and a member's removal from a team (lib/teams/membership-changes.ts), which
// leaves their leads in that team unassigned, audited and announced.

await useTestDatabase();

/** A team with an endpoint for lead.updated, one for lead.created only and a disabled one for lead.updated. */
async function teamWithEndpoints() {
  const people = await makeTeam();
  const actor = actorOf(people.owner);
  const endpoint = (events: string[]) =>
    createEndpoint({ teamId: people.team.id, url: "https://hooks.example.com/in", description: null, events, actor });
  const updated = await endpoint(["lead.created", "lead.updated"]);
  await endpoint(["lead.created"]);
  const disabled = await endpoint(["lead.updated"]);
  await db().webhookEndpoint.update({ where: { id: disabled.id }, data: { enabled: false } });
  return { ...people, endpointId: updated.id };
}

/** The team's lead.updated deliveries, parsed, by lead id. */
async function deliveries(teamId: string) {
  const jobs = await db().job.findMany({ where: { teamId, eventType: "lead.updated" } });
  return jobs
    .map((job) => ({ job, event: leadUpdatedEventSchema.parse(JSON.parse(job.payload)) }))
    .sort((a, b) => (a.event.data.lead_id < b.event.data.lead_id ? -1 : 1));
}

describe("lead.updated", () => {
  test("an endpoint may subscribe to lead.updated", async () => {
    const { team, owner } = await makeTeam();
    const added = await addEndpoint({
      teamId: team.id,
      url: "https://hooks.example.com/x",
      events: ["lead.updated"],
      actor: actorOf(owner),
    });
    assert.equal(added.ok, true);
    assert.equal((await db().webhookEndpoint.findFirstOrThrow({ where: { teamId: team.id } })).events, "lead.updated");
  });

  test("a status change: one delivery per changed lead to each enabled, subscribed endpoint, with the status's from and to", async () => {
    const { team, admin, endpointId } = await teamWithEndpoints();
    const [a, b] = [await lead(team.id), await lead(team.id)];
    await setLeadStatus({ teamId: team.id, leadIds: [a, b], status: "qualified", actor: actorOf(admin) });
    const sent = await deliveries(team.id);
    assert.deepEqual(
      sent.map(({ job, event }) => [job.kind, job.endpointId, job.state, job.eventId === event.id, event.type, event.data]),
      [a, b].map((leadId) => [
        "webhook",
        endpointId,
        "pending",
        true,
        "lead.updated",
        { team: { id: team.id, slug: team.slug }, lead_id: leadId, changes: { status: { from: "new", to: "qualified" } } },
      ]),
    );
    assert.notEqual(sent[0]!.event.id, sent[1]!.event.id, "an event per lead");
  });

  test("an owner change names the owners before and after (null: unassigned)", async () => {
    const { team, admin, member, other } = await teamWithEndpoints();
    const id = await lead(team.id);
    const view = (user: typeof member) => ({ id: user.id, email: user.email, name: user.name });
    const assign = async (ownerId: string | null, actor: typeof member) => {
      await db().job.deleteMany({ where: { teamId: team.id } });
      await assignLeads({ teamId: team.id, leadIds: [id], ownerId, actor: actorOf(actor) });
      return (await deliveries(team.id)).map(({ event }) => event.data.changes);
    };
    assert.deepEqual(await assign(member.id, member), [{ owner: { from: null, to: view(member) } }]);
    assert.deepEqual(await assign(other.id, admin), [{ owner: { from: view(member), to: view(other) } }]);
    assert.deepEqual(await assign(null, admin), [{ owner: { from: view(other), to: null } }]);
  });

  test("a refused change or one that changes nothing sends nothing", async () => {
    const { team, member, other } = await teamWithEndpoints();
    const id = await lead(team.id);
    assert.equal((await assignLeads({ teamId: team.id, leadIds: [id], ownerId: other.id, actor: actorOf(member) })).ok, false);
    assert.deepEqual(await setLeadStatus({ teamId: team.id, leadIds: [id], status: "new", actor: actorOf(member) }), {
      ok: true,
      changed: [],
    });
    assert.deepEqual(await deliveries(team.id), []);
  });
});

describe("a member's removal from the team", () => {
  test("leaves their leads in that team unassigned, audited by who removed them and announced; other teams' leads stay theirs", async () => {
    const { team, owner, admin, member, endpointId } = await teamWithEndpoints();
    const elsewhere = await makeTeam();
    await addMember({ teamId: elsewhere.team.id, userId: member.id, role: "member" });
    const [a, b, kept] = [await lead(team.id), await lead(team.id), await lead(team.id)];
    const theirs = await lead(elsewhere.team.id);
    await assignLeads({ teamId: team.id, leadIds: [a, b], ownerId: member.id, actor: actorOf(admin) });
    await assignLeads({ teamId: team.id, leadIds: [kept], ownerId: admin.id, actor: actorOf(admin) });
    await assignLeads({ teamId: elsewhere.team.id, leadIds: [theirs], ownerId: member.id, actor: actorOf(member) });
    await setLeadStatus({ teamId: team.id, leadIds: [a], status: "contacted", actor: actorOf(member) });
    const trail = auditTrail(team.id);
    await trail();
    await db().job.deleteMany({ where: { teamId: team.id } });

    // A role change keeps the leads.
    assert.equal(await changeMembership({ teamId: team.id, userId: member.id, role: "admin", actor: actorOf(owner) }), true);
    assert.equal((await row(a)).ownerId, member.id);
    assert.equal(await changeMembership({ teamId: team.id, userId: member.id, role: null, actor: actorOf(owner) }), true);

    assert.deepEqual(
      [await row(a), await row(b)].map((r) => [r.ownerId, r.assignedAt, r.status]),
      [
        [null, null, "contacted"],
        [null, null, "new"],
      ],
    );
    assert.deepEqual([(await row(kept)).ownerId, (await row(theirs)).ownerId], [admin.id, member.id]);
    assert.deepEqual(
      await trail(),
      [a, b].map((leadId) => ["lead.assigned", owner.id, leadId, { from: member.id, to: null, reason: "member_removed" }]),
    );
    const sent = await deliveries(team.id);
    const view = { id: member.id, email: member.email, name: member.name };
    assert.deepEqual(
      sent.map(({ job, event }) => [job.endpointId, event.data.lead_id, event.data.changes]),
      [a, b].map((leadId) => [endpointId, leadId, { owner: { from: view, to: null } }]),
    );
  });

  test("a removal refused (the last owner) leaves their leads theirs", async () => {
    const { team, owner, admin } = await makeTeam();
    const id = await lead(team.id);
    await assignLeads({ teamId: team.id, leadIds: [id], ownerId: owner.id, actor: actorOf(admin) });
    await assert.rejects(changeMembership({ teamId: team.id, userId: owner.id, role: null, actor: actorOf(owner) }), LastOwnerError);
    assert.equal((await row(id)).ownerId, owner.id);
    assert.equal(await db().auditEvent.count({ where: { teamId: team.id, action: "lead.assigned", actorUserId: owner.id } }), 0);
  });
});
