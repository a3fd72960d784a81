import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { addMember, createTeam } from "../teams/team-store";
import { endAllSessions } from "../users/user-changes";
import { createUser } from "../users/user-store";
import { checkSessionToken, issueSessionToken } from "./session-token";

await useTestDatabase();

let count = 0;
const makeUser = () => createUser({ email: `session-${++count}@example.test`, password: "correct horse battery" });
const makeTeam = () => createTeam({ slug: `sessions-${++count}`, name: `Sessions ${count}` });

describe("session tokens carry the user's session version", () => {
  test("a token issued at sign-in stays current, with the user's email and name, until the sessions end", async () => {
    const user = await makeUser();
    const token = await issueSessionToken({ name: "ignored", email: "ignored@example.test" }, user.id);
    assert.deepEqual(token, { sub: user.id, email: user.email, name: null, sv: 0 });
    assert.deepEqual(await checkSessionToken(token), token);

    assert.equal(await endAllSessions(user.id), true);
    assert.deepEqual(await checkSessionToken(token), {}, "a token from before sign-out must sign nobody in");
    const next = await issueSessionToken({}, user.id);
    assert.equal(next.sv, 1);
    assert.deepEqual(await checkSessionToken(next), next, "a new sign-in works");
  });

  test("ending one user's sessions leaves other users' sessions alone", async () => {
    const [mine, theirs] = [await makeUser(), await makeUser()];
    const [myToken, theirToken] = [await issueSessionToken({}, mine.id), await issueSessionToken({}, theirs.id)];
    await endAllSessions(mine.id);
    assert.deepEqual(await checkSessionToken(myToken), {});
    assert.deepEqual(await checkSessionToken(theirToken), theirToken);
  });

  test("tokens without a version (issued before versions existed), of deleted users or forged are refused", async () => {
    const user = await makeUser();
    const token = await issueSessionToken({}, user.id);
    assert.deepEqual(await checkSessionToken({ sub: user.id }), {});
    assert.deepEqual(await checkSessionToken({ sub: user.id, sv: 5 }), {});
    assert.deepEqual(await checkSessionToken({}), {});
    await db().user.delete({ where: { id: user.id } });
    assert.deepEqual(await checkSessionToken(token), {});
    assert.deepEqual(await issueSessionToken({}, user.id), {});
  });
});

describe("endAllSessions", () => {
  test("for an unknown user it changes nothing and says so", async () => {
    assert.equal(await endAllSessions("no-such-user"), false);
    assert.equal(await endAllSessions("no-such-user", { actor: CLI_ACTOR }), false);
  });

  test("with an actor (the operator CLI) each of the user's teams gets an audit event; without one, none", async () => {
    const [team, other, unrelated] = [await makeTeam(), await makeTeam(), await makeTeam()];
    const user = await makeUser();
    await addMember({ teamId: team.id, userId: user.id, role: "member" });
    await addMember({ teamId: other.id, userId: user.id, role: "admin" });

    await endAllSessions(user.id);
    assert.deepEqual(await listAuditEvents(team.id), [], "sign-out is not an audit event");

    await endAllSessions(user.id, { actor: CLI_ACTOR });
    for (const teamId of [team.id, other.id]) {
      const events = await listAuditEvents(teamId);
      assert.deepEqual(
        events.map((e) => [e.action, e.via, e.actorUserId, e.targetId, e.details]),
        [["member.sessions_ended", "cli", null, user.id, { email: user.email }]],
      );
    }
    assert.deepEqual(await listAuditEvents(unrelated.id), []);
  });
});
