import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { authenticateUser } from "../users/authenticate-user";
import { createUser } from "../users/user-store";
import { acceptInviteAsUser, acceptInviteWithNewAccount, findOpenInvite } from "./accept-invite";
import { createInvite, type CreatedInvite } from "./invite-changes";
import { findUnacceptedInvite, listPendingInvites, revokeInvite } from "./invite-store";
import { addMember, createTeam, findMembership } from "./team-store";

const database = await useTestDatabase();

let count = 0;
const makeTeam = () => createTeam({ slug: `team-${++count}`, name: `Team ${count}` });
const PASSWORD = "a long enough password";
const IP = "203.0.113.7";
const newAccount = (token: string, password = PASSWORD) => acceptInviteWithNewAccount({ token, password, ip: IP });

async function invite(teamId: string, email: string, role: "owner" | "admin" | "member" = "member"): Promise<CreatedInvite> {
  const inviter = await createUser({ email: `inviter-${++count}@example.test`, password: PASSWORD });
  await addMember({ teamId, userId: inviter.id, role: "owner" });
  const created = await createInvite({ teamId, email, role, createdById: inviter.id });
  assert.notEqual(created, "already-member");
  return created as CreatedInvite;
}

describe("invites", () => {
  test("a new invitee sets a password, joins with the invited role, and the link works once", async () => {
    const team = await makeTeam();
    const created = await invite(team.id, "  New.Person@Example.TEST ", "admin");
    assert.equal(created.email, "new.person@example.test");
    assert.match(created.token, /^[\w-]{43}$/);
    assert.ok(!database.storedBytes().includes(Buffer.from(created.token)), "only the token's digest is stored");
    assert.deepEqual(await findOpenInvite(created.token), {
      email: "new.person@example.test",
      role: "admin",
      team: { slug: team.slug, name: team.name },
    });

    assert.deepEqual(await newAccount(created.token), { ok: true, email: created.email, teamSlug: team.slug });
    const user = await authenticateUser(created.email, PASSWORD);
    assert.ok(user);
    assert.equal((await findMembership({ userId: user.id, slug: team.slug }))?.role, "admin");
    assert.equal(await findOpenInvite(created.token), null);
    assert.deepEqual(await newAccount(created.token), { ok: false, reason: "invalid" });
    assert.deepEqual(await listPendingInvites(team.id), []);
  });

  test("a new invitee's password meets the server's policy, whatever the client sends", async () => {
    const team = await makeTeam();
    const created = await invite(team.id, "weak@example.test");
    for (const password of ["a", "fourteen-chars", "passwordpassword"]) {
      const result = await newAccount(created.token, password);
      assert.equal(result.ok, false, password);
      assert.equal(!result.ok && result.reason, "weak-password", password);
    }
    assert.equal(await db().user.count({ where: { email: "weak@example.test" } }), 0);
    assert.ok(await findOpenInvite(created.token), "the invite stays open");
  });

  test("the same link submitted twice at once makes one account and one membership", async () => {
    const team = await makeTeam();
    const created = await invite(team.id, "twice@example.test");
    const results = await Promise.all([newAccount(created.token), newAccount(created.token)]);
    assert.deepEqual(results.map((r) => r.ok).sort(), [false, true]);
    assert.equal(await db().user.count({ where: { email: "twice@example.test" } }), 1);
    assert.equal(await db().membership.count({ where: { teamId: team.id, user: { email: "twice@example.test" } } }), 1);
  });

  test("an existing account is never asked for its password: creating one is refused whatever the password, then the signed-in user accepts", async () => {
    const team = await makeTeam();
    const existing = await createUser({ email: "existing@example.test", password: PASSWORD });
    const created = await invite(team.id, "existing@example.test");
    const before = (await db().user.findUniqueOrThrow({ where: { id: existing.id } })).passwordHash;
    // The right password and a wrong one get the same answer: no oracle.
    assert.deepEqual(await newAccount(created.token, PASSWORD), { ok: false, reason: "account-exists" });
    assert.deepEqual(await newAccount(created.token, "not the password at all"), { ok: false, reason: "account-exists" });
    assert.equal((await db().user.findUniqueOrThrow({ where: { id: existing.id } })).passwordHash, before);
    assert.equal(await findMembership({ userId: existing.id, slug: team.slug }), null);
    assert.ok(await findOpenInvite(created.token));

    assert.deepEqual(await acceptInviteAsUser({ token: created.token, userId: existing.id }), {
      ok: true,
      email: existing.email,
      teamSlug: team.slug,
    });
    assert.equal((await findMembership({ userId: existing.id, slug: team.slug }))?.role, "member");
    assert.deepEqual(await acceptInviteAsUser({ token: created.token, userId: existing.id }), { ok: false, reason: "invalid" });
  });

  test("a signed-in user cannot accept an invite made out to another address", async () => {
    const team = await makeTeam();
    const other = await createUser({ email: "someone-else@example.test", password: PASSWORD });
    const created = await invite(team.id, "invitee@example.test");
    assert.deepEqual(await acceptInviteAsUser({ token: created.token, userId: other.id }), {
      ok: false,
      reason: "other-address",
      inviteEmail: "invitee@example.test",
    });
    assert.equal(await findMembership({ userId: other.id, slug: team.slug }), null);
    assert.ok(await findOpenInvite(created.token));
  });

  test("asking to create an existing account counts as a failed sign-in: the sign-in limit throttles it", async () => {
    const team = await makeTeam();
    await createUser({ email: "probed@example.test", password: PASSWORD });
    const created = await invite(team.id, "probed@example.test");
    const limit = Number(process.env.SIGN_IN_FAILURES_PER_EMAIL_AND_IP ?? 10);
    for (let i = 0; i < limit; i++) assert.equal((await newAccount(created.token)).ok, false);
    const refused = await newAccount(created.token);
    assert.equal(!refused.ok && refused.reason, "throttled");
  });

  test("joining never lowers a role the user already holds", async () => {
    const team = await makeTeam();
    const admin = await createUser({ email: "already-admin@example.test", password: PASSWORD });
    const created = await invite(team.id, "other-address@example.test");
    await db().invite.updateMany({ where: { email: "other-address@example.test" }, data: { email: admin.email } });
    await addMember({ teamId: team.id, userId: admin.id, role: "admin" });
    assert.equal((await acceptInviteAsUser({ token: created.token, userId: admin.id })).ok, true);
    assert.equal((await findMembership({ userId: admin.id, slug: team.slug }))?.role, "admin");
  });

  test("an address that is already a member gets no invite", async () => {
    const team = await makeTeam();
    const member = await createUser({ email: "member@example.test", password: PASSWORD });
    await addMember({ teamId: team.id, userId: member.id, role: "member" });
    assert.equal(
      await createInvite({ teamId: team.id, email: "MEMBER@example.test", role: "admin", createdById: member.id }),
      "already-member",
    );
  });

  test("a new invite for the same address replaces the pending one", async () => {
    const team = await makeTeam();
    const first = await invite(team.id, "again@example.test");
    const second = await invite(team.id, "again@example.test", "admin");
    assert.equal(await findOpenInvite(first.token), null);
    assert.deepEqual(
      (await listPendingInvites(team.id)).map((i) => [i.email, i.role]),
      [["again@example.test", "admin"]],
    );
    assert.ok(await findOpenInvite(second.token));
  });

  test("expired, revoked and unknown links are invalid; revoking is scoped to the team", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const expired = await invite(team.id, "late@example.test");
    await db().invite.updateMany({ where: { email: "late@example.test" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.deepEqual(await newAccount(expired.token), { ok: false, reason: "invalid" });

    const revoked = await invite(team.id, "revoked@example.test");
    const [pending] = await listPendingInvites(team.id);
    assert.equal(await revokeInvite({ teamId: other.id, inviteId: pending!.id }), false);
    assert.ok(await findOpenInvite(revoked.token));
    assert.equal(await revokeInvite({ teamId: team.id, inviteId: pending!.id }), true);
    assert.equal(await findOpenInvite(revoked.token), null);

    assert.deepEqual(await newAccount("x".repeat(43)), { ok: false, reason: "invalid" });
    assert.equal(await db().user.count({ where: { email: { in: ["late@example.test", "revoked@example.test"] } } }), 0);
  });
});

describe("expired invites", () => {
  test("are listed as expired, not dropped, and a new invite for the address replaces the old link", async () => {
    const team = await makeTeam();
    const old = await invite(team.id, "late@example.test", "admin");
    await db().invite.updateMany({ where: { teamId: team.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const [listed] = await listPendingInvites(team.id);
    assert.deepEqual([listed!.email, listed!.role, listed!.expired], ["late@example.test", "admin", true]);
    assert.equal(await findOpenInvite(old.token), null);
    assert.deepEqual(await findUnacceptedInvite({ teamId: team.id, inviteId: listed!.id }), { email: "late@example.test", role: "admin" });
    assert.equal(await findUnacceptedInvite({ teamId: (await makeTeam()).id, inviteId: listed!.id }), null);

    const renewed = await invite(team.id, "late@example.test", "admin");
    assert.equal(await findOpenInvite(old.token), null);
    assert.ok(await findOpenInvite(renewed.token));
    assert.deepEqual(
      (await listPendingInvites(team.id)).map((i) => [i.email, i.expired]),
      [["late@example.test", false]],
    );
  });
});
