import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeam, setTeamRetention } from "../teams/team-store";
import { createLead } from "../leads/create-lead";
import { countLeads, findLead } from "../leads/lead-store";
import { RETENTION_PERIOD_MS, runRetentionJob } from "./lead-retention";

await useTestDatabase();

const DAY = 24 * 60 * 60 * 1000;
// The job's clock: a fixed instant the test moves, not the wall clock.
const now = new Date("2026-06-01T12:00:00Z");

async function leadAt(teamId: string, name: string, createdAt: Date): Promise<string> {
  const { leadId } = await createLead({
    team: { id: teamId, defaultPhoneCountry: null },
    apiKeyId: null,
    input: { extraFields: {}, name },
  });
  await db().lead.update({ where: { id: leadId }, data: { createdAt } });
  return leadId;
}

test("deletes each team's leads older than its retention, once per period across callers, one audit event per team run", async () => {
  const team = await createTeam({ slug: "retention", name: "Retention" });
  const keepAll = await createTeam({ slug: "keep-all", name: "Keep all" });
  await setTeamRetention(team.id, 30);
  const old = await leadAt(team.id, "Old", new Date(now.getTime() - 31 * DAY));
  const edge = await leadAt(team.id, "Exactly thirty days", new Date(now.getTime() - 30 * DAY));
  const recent = await leadAt(team.id, "Recent", new Date(now.getTime() - 25 * DAY));
  const ancient = await leadAt(keepAll.id, "Ancient", new Date(now.getTime() - 3650 * DAY));

  // Two instances tick at the same moment: one claims the period and runs.
  const runs = await Promise.all([runRetentionJob(now), runRetentionJob(now)]);
  assert.deepEqual(
    runs.filter((r) => r !== null),
    [{ teams: 1, deleted: 1 }],
  );
  assert.equal(await findLead({ id: old, teamId: team.id }), null);
  assert.ok(await findLead({ id: edge, teamId: team.id }), "exactly N days old is kept");
  assert.ok(await findLead({ id: recent, teamId: team.id }));
  assert.ok(await findLead({ id: ancient, teamId: keepAll.id }), "a team without retention keeps everything");

  const events = await listAuditEvents(team.id);
  assert.deepEqual(
    events.map((e) => [e.action, e.via, e.actorUserId, e.details]),
    [["lead.retention_applied", "cli", null, { count: 1, ids: old, retentionDays: 30 }]],
  );

  // Within the period nobody runs it again; a day later the edge lead has expired.
  assert.equal(await runRetentionJob(new Date(now.getTime() + RETENTION_PERIOD_MS - 1)), null);
  assert.deepEqual(await runRetentionJob(new Date(now.getTime() + DAY)), { teams: 1, deleted: 1 });
  assert.equal(await findLead({ id: edge, teamId: team.id }), null);
  assert.equal(await countLeads(team.id), 1);

  // A run that deletes nothing writes no event.
  assert.deepEqual(await runRetentionJob(new Date(now.getTime() + 2 * DAY)), { teams: 0, deleted: 0 });
  assert.equal((await listAuditEvents(team.id)).length, 2);
  assert.deepEqual(await listAuditEvents(keepAll.id), []);
});
