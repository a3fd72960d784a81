import assert from "node:assert/strict";
import { test } from "node:test";

// The connections' log ages out with the request logs' retention (30 days here); the
// deliveries still waiting for a mapping after 30 days, or the team's lead retention
// (lib/intake/receive-delivery-kept.test.ts).
process.env.REQUEST_LOG_RETENTION_DAYS = "30";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { createConnection } = await import("../connections/connection-changes");
const { newDeliveryId } = await import("../connections/connection-delivery-store");
const { db } = await import("../db/client");
const { createTeam } = await import("../teams/team-store");
const { pruneConnectionLogs } = await import("./connection-log-pruning");

const DAY = 24 * 60 * 60 * 1000;

test("settled rows older than the retention go, and 'needs mapping' rows older than 30 days; newer ones stay", async () => {
  const team = await createTeam({ slug: "pruning", name: "Pruning" });
  const { id: connectionId } = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor: CLI_ACTOR });
  const now = new Date("2026-11-26T12:00:00Z");
  const row = (outcome: string, ageDays: number, submissionId: string) => {
    const at = new Date(now.getTime() - ageDays * DAY);
    return { id: newDeliveryId(), connectionId, teamId: team.id, submissionId, outcome, status: 201, createdAt: at, lastAttemptAt: at };
  };
  await db().connectionDelivery.createMany({
    data: [
      row("created", 31, "old-created"),
      row("refused", 40, "old-refused"),
      row("needs_mapping", 90, "old-waiting"),
      row("needs_mapping", 29, "recent-waiting"),
      row("created", 29, "recent-created"),
      row("refused", 1, "recent-refused"),
    ],
  });
  assert.equal(await pruneConnectionLogs(now), 3);
  const left = await db().connectionDelivery.findMany({
    where: { connectionId },
    orderBy: { submissionId: "asc" },
    select: { submissionId: true },
  });
  assert.deepEqual(
    left.map((r) => r.submissionId),
    ["recent-created", "recent-refused", "recent-waiting"],
  );
  assert.equal(await pruneConnectionLogs(now), 0);
});
