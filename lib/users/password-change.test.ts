import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { db } from "../db/client";
import { useTestDatabase } from "../../test/support/test-database";
import { addMember, createTeam } from "../teams/team-store";
import { authenticateUser } from "./authenticate-user";
import { PasswordPolicyError } from "./password-policy";
import { createPasswordReset, resetPassword } from "./password-reset-changes";
import { findOpenReset } from "./password-reset-store";
import { assertSignInAllowed } from "../rate-limit/sign-in-limits";
import { changePassword } from "./change-password";
import { createUser } from "./user-store";

await useTestDatabase();

const OLD = "an old but long password";
const NEW = "a brand new long passphrase";
let count = 0;
async function member() {
  const team = await createTeam({ slug: `pw-${++count}`, name: `Passwords ${count}` });
  const user = await createUser({ email: `pw-${count}@example.test`, password: OLD });
  await addMember({ teamId: team.id, userId: user.id, role: "member" });
  return { team, user };
}
const sessionVersion = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId } })).sessionVersion;
const actions = async (teamId: string) =>
  (await db().auditEvent.findMany({ where: { teamId }, orderBy: { createdAt: "asc" } })).map((e) => [e.action, e.via]);

describe("changePassword", () => {
  test("needs the current password; sets the new one, ends every session and is audited in each team", async () => {
    const { team, user } = await member();
    const actor = { userId: user.id, ip: "203.0.113.5", via: "web" as const };
    assert.equal(await changePassword({ userId: user.id, current: "wrong password here", next: NEW, actor }), "wrong-current-password");
    assert.equal(await sessionVersion(user.id), 0);
    await assert.rejects(changePassword({ userId: user.id, current: OLD, next: "short", actor }), PasswordPolicyError);
    assert.equal(await changePassword({ userId: user.id, current: OLD, next: NEW, actor }), "changed");
    assert.equal(await sessionVersion(user.id), 1);
    assert.equal(await authenticateUser(user.email, OLD), null);
    assert.ok(await authenticateUser(user.email, NEW));
    assert.deepEqual(await actions(team.id), [["user.password_changed", "web"]]);
  });

  test("wrong current passwords spend the sign-in budget: past it even the right one is refused unchecked", async () => {
    // Issue 27: a stolen session could guess the password without limit. The budget is the
    // sign-in form's (SIGN_IN_FAILURES_PER_EMAIL_AND_IP, 10 by default), per email and address.
    const { user } = await member();
    const actor = { userId: user.id, ip: "203.0.113.66", via: "web" as const };
    for (let i = 0; i < 10; i++) {
      assert.equal(await changePassword({ userId: user.id, current: `wrong guess ${i}`, next: NEW, actor }), "wrong-current-password");
    }
    const refused = await changePassword({ userId: user.id, current: OLD, next: NEW, actor });
    assert.equal(typeof refused, "object");
    assert.ok((refused as { retryAfterSeconds: number }).retryAfterSeconds >= 1);
    assert.equal(await sessionVersion(user.id), 0, "nothing changed");
    await assert.rejects(assertSignInAllowed(user.email, "203.0.113.66"), /^Error: SignInThrottled:\d+$/, "the sign-in form is closed too");
    // Another address has its own budget for this email.
    const elsewhere = { ...actor, ip: "203.0.113.67" };
    assert.equal(await changePassword({ userId: user.id, current: OLD, next: NEW, actor: elsewhere }), "changed");
  });
});

describe("password reset links", () => {
  test("the operator's link sets a password once, ends every session, and a newer link replaces an older one", async () => {
    const { team, user } = await member();
    assert.equal(await createPasswordReset("nobody@example.test"), null);
    const first = (await createPasswordReset(user.email))!;
    const second = (await createPasswordReset(` ${user.email.toUpperCase()} `))!;
    assert.equal(await findOpenReset(first.token), null, "the older link stops working");
    assert.deepEqual(await findOpenReset(second.token), { email: user.email });
    await assert.rejects(resetPassword({ token: second.token, password: "short", ip: null }), PasswordPolicyError);
    assert.equal(await resetPassword({ token: second.token, password: NEW, ip: "203.0.113.9" }), true);
    assert.equal(await resetPassword({ token: second.token, password: "yet another long password", ip: null }), false, "once only");
    assert.ok(await authenticateUser(user.email, NEW));
    assert.equal(await sessionVersion(user.id), 1);
    assert.deepEqual(await actions(team.id), [
      ["user.password_reset", "cli"],
      ["user.password_reset", "cli"],
      ["user.password_changed", "web"],
    ]);
    // Only the digest is stored.
    const rows = await db().passwordReset.findMany({ where: { userId: user.id } });
    assert.ok(rows.every((row) => !row.tokenDigest.includes(second.token)));
  });

  test("an expired link is refused", async () => {
    const { user } = await member();
    const reset = (await createPasswordReset(user.email))!;
    await db().passwordReset.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.equal(await findOpenReset(reset.token), null);
    assert.equal(await resetPassword({ token: reset.token, password: NEW, ip: null }), false);
    assert.ok(await authenticateUser(user.email, OLD));
  });
});
