import assert from "node:assert/strict";
import { test } from "node:test";

// A team's connections are capped (issue 40, finding 1: each may keep bodies that need
// mapping, so their number bounds what a team's logs hold): the 51st is refused with the
// text the page and the CLI show, nothing written; after a deletion there is room again.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { db } = await import("../db/client");
const { createTeam } = await import("../teams/team-store");
const { ConnectionLimitReached, createConnection, deleteConnection, MAX_CONNECTIONS_PER_TEAM, TOO_MANY_CONNECTIONS } =
  await import("./connection-changes");

test("a team has at most MAX_CONNECTIONS_PER_TEAM connections; another team is not counted", async () => {
  const team = await createTeam({ slug: "many-connections", name: "Many connections" });
  const other = await createTeam({ slug: "other-connections", name: "Other connections" });
  const make = (teamId: string) => createConnection({ teamId, builder: "generic", createdById: null, actor: CLI_ACTOR });
  const made = [];
  for (let i = 0; i < MAX_CONNECTIONS_PER_TEAM; i++) made.push(await make(team.id));
  const audited = () => db().auditEvent.count({ where: { teamId: team.id, action: "connection.created" } });
  const before = await audited();
  await assert.rejects(
    make(team.id),
    (error: unknown) => error instanceof ConnectionLimitReached && error.message === TOO_MANY_CONNECTIONS,
  );
  assert.equal(await db().connection.count({ where: { teamId: team.id } }), MAX_CONNECTIONS_PER_TEAM);
  assert.equal(await audited(), before, "a refused connection writes no audit event");
  await make(other.id);
  assert.ok(await deleteConnection({ teamId: team.id, id: made[0]!.id, actor: CLI_ACTOR }));
  await make(team.id);
});
