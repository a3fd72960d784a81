import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { createConnection } from "./connection-changes";
import { keptUsage, newDeliveryId, recordUnmade } from "./connection-delivery-store";
import { deleteKeptDelivery } from "./delivery-changes";

// Deleting one kept delivery of a connection's log (the delivery's page, docs/connections.md):
// the team's own row goes with an audit event naming ids only; anything else is left alone.

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: "203.0.113.4", via: "web" };
let teams = 0;

async function teamWithConnection() {
  const team = await createTeam({ slug: `delivery-changes-${++teams}`, name: `Delivery changes ${teams}` });
  const { id } = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor });
  return { team, connectionId: id };
}

/** A delivery kept as "needs mapping", as the endpoint records it; its id. */
async function keep(teamId: string, connectionId: string, submissionId: string, payload: string): Promise<string> {
  await recordUnmade({
    connectionId,
    teamId,
    submissionId,
    outcome: "needs_mapping",
    status: 202,
    error: "It needs mapping: no answer gives the name.",
    contentType: "application/json",
    payload,
    answers: [{ key: "email", label: "email", target: "email", field: "Email" }],
    at: new Date(),
  });
  const row = await db().connectionDelivery.findFirstOrThrow({ where: { connectionId, submissionId }, select: { id: true } });
  return row.id;
}

const deletions = async (teamId: string) => (await listAuditEvents(teamId)).filter((e) => e.action === "connection.delivery_deleted");

test("deletes the team's kept delivery and audits the connection and delivery ids, never the body", async () => {
  const { team, connectionId } = await teamWithConnection();
  const body = JSON.stringify({ email: "ada.gone@example.com", note: "a body only its page shows" });
  const id = await keep(team.id, connectionId, "sha256:kept", body);
  const other = await keep(team.id, connectionId, "sha256:stays", body.replace("gone", "stay"));
  const before = await keptUsage(connectionId, null);
  assert.equal(before.rows, 2);

  assert.equal(await deleteKeptDelivery({ teamId: team.id, connectionId, id, actor }), true);

  const left = await db().connectionDelivery.findMany({ where: { connectionId }, select: { id: true } });
  assert.deepEqual(
    left.map((row) => row.id),
    [other],
  );
  // Its room among the kept bodies is free again.
  const after = await keptUsage(connectionId, null);
  assert.deepEqual([after.rows, after.bytes * 2], [1, before.bytes]);
  const [event, ...more] = await deletions(team.id);
  assert.equal(more.length, 0);
  assert.deepEqual([event!.targetId, event!.details, event!.ip, event!.via], [connectionId, { delivery_id: id }, "203.0.113.4", "web"]);
  const stored = await db().auditEvent.findMany({ where: { teamId: team.id } });
  assert.ok(!JSON.stringify(stored).includes("ada.gone@example.com"));
  // Gone, it cannot be deleted twice.
  assert.equal(await deleteKeptDelivery({ teamId: team.id, connectionId, id, actor }), false);
  assert.equal((await deletions(team.id)).length, 1);
});

test("another team's delivery, another connection's, or a delivery that made its lead: nothing is deleted or audited", async () => {
  const ours = await teamWithConnection();
  const theirs = await teamWithConnection();
  const id = await keep(ours.team.id, ours.connectionId, "sha256:ours", JSON.stringify({ email: "grace@example.com" }));
  const second = await createConnection({ teamId: ours.team.id, builder: "generic", createdById: null, actor });

  assert.equal(await deleteKeptDelivery({ teamId: theirs.team.id, connectionId: ours.connectionId, id, actor }), false);
  assert.equal(await deleteKeptDelivery({ teamId: theirs.team.id, connectionId: theirs.connectionId, id, actor }), false);
  assert.equal(await deleteKeptDelivery({ teamId: ours.team.id, connectionId: second.id, id, actor }), false);

  // A created row keeps no body: it is how a builder's retry finds its lead, and stays.
  const made = newDeliveryId();
  const at = new Date();
  await db().connectionDelivery.create({
    data: {
      id: made,
      connectionId: ours.connectionId,
      teamId: ours.team.id,
      submissionId: "sha256:made",
      outcome: "created",
      status: 201,
      createdAt: at,
      lastAttemptAt: at,
    },
  });
  assert.equal(await deleteKeptDelivery({ teamId: ours.team.id, connectionId: ours.connectionId, id: made, actor }), false);

  assert.equal(await db().connectionDelivery.count({ where: { connectionId: ours.connectionId } }), 2);
  assert.deepEqual([(await deletions(ours.team.id)).length, (await deletions(theirs.team.id)).length], [0, 0]);
});
