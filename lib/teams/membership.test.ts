import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { createUser } from "../users/user-store";
import { changeMembership, LastOwnerError } from "./membership-changes";
import { addMember, createTeam, findMembership, listMembers, listTeamsForUser } from "./team-store";

await useTestDatabase();

let count = 0;
const makeUser = () => createUser({ email: `user-${++count}@example.test`, password: "correct horse battery" });
const makeTeam = (name = `Team ${++count}`) => createTeam({ slug: `team-${++count}`, name });

async function teamWithTwoOwners() {
  const team = await makeTeam();
  const [a, b] = [await makeUser(), await makeUser()];
  await addMember({ teamId: team.id, userId: a.id, role: "owner" });
  await addMember({ teamId: team.id, userId: b.id, role: "owner" });
  return { team, a, b };
}

describe("memberships", () => {
  test("findMembership gives the role in that team only; another team's slug is null", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const user = await makeUser();
    await addMember({ teamId: team.id, userId: user.id, role: "admin" });
    assert.deepEqual(await findMembership({ userId: user.id, slug: team.slug }), { team, role: "admin" });
    assert.equal(await findMembership({ userId: user.id, slug: other.slug }), null);
    assert.equal(await findMembership({ userId: user.id, slug: "no-such-team" }), null);
  });

  test("listTeamsForUser lists every team of the user, by name, with the role", async () => {
    const user = await makeUser();
    const [zeta, alpha] = [await makeTeam("Zeta"), await makeTeam("Alpha")];
    await makeTeam("Not mine");
    await addMember({ teamId: zeta.id, userId: user.id, role: "member" });
    await addMember({ teamId: alpha.id, userId: user.id, role: "owner" });
    assert.deepEqual(await listTeamsForUser(user.id), [
      { slug: alpha.slug, name: "Alpha", role: "owner" },
      { slug: zeta.slug, name: "Zeta", role: "member" },
    ]);
  });

  test("the last owner can be neither demoted nor removed; with a second owner both work", async () => {
    const team = await makeTeam();
    const [owner, second] = [await makeUser(), await makeUser()];
    await addMember({ teamId: team.id, userId: owner.id, role: "owner" });
    await assert.rejects(changeMembership({ teamId: team.id, userId: owner.id, role: "admin" }), LastOwnerError);
    await assert.rejects(changeMembership({ teamId: team.id, userId: owner.id, role: null }), LastOwnerError);
    assert.deepEqual(
      (await listMembers(team.id)).map((m) => m.role),
      ["owner"],
      "the refused change left nothing behind",
    );

    await addMember({ teamId: team.id, userId: second.id, role: "owner" });
    assert.equal(await changeMembership({ teamId: team.id, userId: owner.id, role: "admin" }), true);
    assert.equal(await changeMembership({ teamId: team.id, userId: owner.id, role: null }), true);
    assert.deepEqual(
      (await listMembers(team.id)).map((m) => [m.userId, m.role]),
      [[second.id, "owner"]],
    );
  });

  test("two owners demoting each other at the same moment leave one owner", async () => {
    const { team, a, b } = await teamWithTwoOwners();
    const results = await Promise.allSettled([
      changeMembership({ teamId: team.id, userId: a.id, role: "member" }),
      changeMembership({ teamId: team.id, userId: b.id, role: "member" }),
    ]);
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal((await listMembers(team.id)).filter((m) => m.role === "owner").length, 1);
  });

  test("concurrent demotions are ordered by the team's lock: the loser gets LastOwnerError, never a write conflict", async () => {
    // A serialization failure here used to leave a pg connection checked out of the pool
    // (the test process then hung in $disconnect), so the refusal must be our own error.
    for (let round = 0; round < 10; round++) {
      const { team, a, b } = await teamWithTwoOwners();
      const results = await Promise.allSettled([
        changeMembership({ teamId: team.id, userId: a.id, role: "member" }),
        changeMembership({ teamId: team.id, userId: b.id, role: null }),
      ]);
      const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
      assert.equal(refused.length, 1, `round ${round}`);
      assert.ok(refused[0] instanceof LastOwnerError, `round ${round}: ${String(refused[0])}`);
      assert.equal((await listMembers(team.id)).filter((m) => m.role === "owner").length, 1);
    }
  });

  test("a user who is not a member is reported, not added", async () => {
    const team = await makeTeam();
    const stranger = await makeUser();
    assert.equal(await changeMembership({ teamId: team.id, userId: stranger.id, role: "admin" }), false);
    assert.deepEqual(await listMembers(team.id), []);
  });
});
