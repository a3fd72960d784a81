import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { db } from "../db/client";
import { useTestDatabase } from "../../test/support/test-database";
import { createUser } from "../users/user-store";
import { listLeadSources } from "./lead-sources";
import { createOwnedTeam, slugFromName } from "./team-changes";
import { findMembership } from "./team-store";

await useTestDatabase();

let count = 0;
const makeUser = () => createUser({ email: `founder-${++count}@example.test`, password: "correct horse battery" });

describe("createOwnedTeam", () => {
  test("makes the team with its API source, the creator as owner, and an audit event", async () => {
    const user = await makeUser();
    const team = await createOwnedTeam({ name: "  Acme   Sales ", ownerUserId: user.id });
    assert.deepEqual([team.name, team.slug], ["Acme Sales", "acme-sales"]);
    assert.equal((await findMembership({ userId: user.id, slug: team.slug }))?.role, "owner");
    assert.deepEqual(
      (await listLeadSources(team.id)).map((s) => [s.name, s.isApi]),
      [["API", true]],
    );
    const events = await db().auditEvent.findMany({ where: { teamId: team.id } });
    assert.deepEqual(
      events.map((e) => [e.action, e.actorUserId, e.via]),
      [["team.created", user.id, "web"]],
    );
  });

  test("a taken slug gets -2, -3 …; names without letters or digits get 'team'", async () => {
    const user = await makeUser();
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createOwnedTeam({ name: "Twins", ownerUserId: user.id })).slug);
    assert.deepEqual(slugs, ["twins", "twins-2", "twins-3"]);
    assert.equal(slugFromName("Ünïcödé Straße!"), "unicode-stra-e");
    assert.equal(slugFromName("日本"), "team");
    assert.equal(slugFromName("x".repeat(100)).length, 40);
  });

  test("refuses an empty or over-long name and writes nothing", async () => {
    const user = await makeUser();
    await assert.rejects(createOwnedTeam({ name: "   ", ownerUserId: user.id }), /1 to 100 characters/);
    await assert.rejects(createOwnedTeam({ name: "n".repeat(101), ownerUserId: user.id }), /1 to 100 characters/);
    assert.equal(await db().membership.count({ where: { userId: user.id } }), 0);
  });
});
