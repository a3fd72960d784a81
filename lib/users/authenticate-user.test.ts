import assert from "node:assert/strict";
import { describe, test } from "node:test";
import bcrypt from "bcryptjs";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { authenticateUser } from "./authenticate-user";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { PasswordPolicyError } from "./password-policy";
import { createUser } from "./user-store";

await useTestDatabase();

let count = 0;
const email = () => `user-${++count}@example.test`;

describe("password hashing and the policy on account creation", () => {
  test("new hashes are Argon2id and read every character, even past bcrypt's 72 bytes", async () => {
    const long = "meadow lantern ".repeat(6); // 90 characters
    const hash = await hashPassword(long);
    assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(needsRehash(hash), false);
    assert.ok(await verifyPassword(long, hash));
    // bcrypt would have stored only the first 72 bytes: this one differs after them.
    assert.equal(await verifyPassword(`${long.slice(0, 72)}something else`, hash), false);
    assert.equal(await verifyPassword(long, "not a hash"), false);
  });

  test("a bcrypt hash keeps working, shorter password included, and becomes Argon2id at the next successful sign-in", async () => {
    const address = email();
    // A password from before the policy: 11 characters, hashed with bcrypt.
    const legacy = await bcrypt.hash("old-secret1", 4);
    const user = await db().user.create({ data: { email: address, passwordHash: legacy }, select: { id: true } });
    assert.equal(needsRehash(legacy), true);

    assert.equal(await authenticateUser(address, "wrong-secret1"), null);
    assert.equal((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash, legacy, "a failure rehashes nothing");

    assert.equal((await authenticateUser(address, "old-secret1"))?.id, user.id);
    const upgraded = (await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    assert.match(upgraded, /^\$argon2id\$/);
    assert.equal((await authenticateUser(address, "old-secret1"))?.id, user.id);
    assert.equal((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash, upgraded, "rehashed once");
  });

  test("createUser applies the policy: short, common and own-address passwords never reach the database", async () => {
    const before = await db().user.count();
    for (const password of ["a", "short-pass-123", "demo-admin-password", "Correct Horse Battery Staple"]) {
      await assert.rejects(createUser({ email: email(), password }), PasswordPolicyError, password);
    }
    const address = `a-long-local-part-${++count}@example.test`;
    await assert.rejects(createUser({ email: address, password: address }), PasswordPolicyError);
    assert.equal(await db().user.count(), before);
    const made = await createUser({ email: email(), password: "x".repeat(10) + "river stone kettle".repeat(10) });
    assert.ok(made.id);
  });
});
