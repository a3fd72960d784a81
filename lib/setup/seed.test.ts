import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { authenticateUser } from "../users/authenticate-user";
import { PasswordPolicyError } from "../users/password-policy";
import { DEFAULT_CURRENCY, workspaceCurrency } from "../workspace/settings";
import { DEMO_TEAM_SLUG, DEMO_WORKSPACE_STEP, seed } from "./seed";

await useTestDatabase();

const demoTeam = () =>
  db().team.findUnique({
    where: { slug: DEMO_TEAM_SLUG },
    include: { sources: { select: { name: true } }, memberships: { select: { userId: true, role: true } } },
  });

async function emptyTheDatabase(): Promise<void> {
  await db().setupStep.deleteMany();
  await db().auditEvent.deleteMany();
  await db().team.deleteMany();
  await db().user.deleteMany();
}

describe("migrations and seed", () => {
  test("a migrated database has the lead counter at 0 and the workspace currency USD", async () => {
    assert.deepEqual(await db().counter.findMany(), [{ name: "lead", value: 0 }]);
    assert.equal(await workspaceCurrency(), "USD");
  });

  test("without a settings row the currency is the default, USD", async () => {
    await db().workspaceSettings.deleteMany();
    assert.equal(await workspaceCurrency(), DEFAULT_CURRENCY);
    assert.equal(DEFAULT_CURRENCY, "USD");
  });

  test("on an empty database, seed makes the demo admin with DEMO_ADMIN_PASSWORD, owning team demo, and sets the currency; twice is once", async () => {
    await emptyTheDatabase();
    const env = {
      ...process.env,
      WORKSPACE_CURRENCY: "EUR",
      DEMO_ADMIN_EMAIL: " Owner@Example.com ",
      DEMO_ADMIN_PASSWORD: "seed-test-passphrase",
    };
    assert.deepEqual(await seed(env), { createdAdmin: true, email: "owner@example.com", generatedPassword: null });
    assert.deepEqual(await seed(env), { createdAdmin: false, email: "owner@example.com" });

    assert.equal(await workspaceCurrency(), "EUR");
    const admin = await authenticateUser("owner@example.com", "seed-test-passphrase");
    assert.ok(admin);
    const team = await demoTeam();
    assert.deepEqual(team?.sources, [{ name: "API" }]);
    assert.deepEqual(team?.memberships, [{ userId: admin.id, role: "owner" }]);
    assert.equal(await db().team.count(), 1);
    assert.equal(await db().user.count(), 1);
    assert.equal(await db().setupStep.count({ where: { name: DEMO_WORKSPACE_STEP } }), 1);
  });

  test("without DEMO_ADMIN_PASSWORD the admin gets a random password, returned once, at creation", async () => {
    await emptyTheDatabase();
    const { DEMO_ADMIN_PASSWORD: _, ...env } = process.env;
    const first = await seed(env);
    assert.equal(first.createdAdmin, true);
    const password = first.createdAdmin ? first.generatedPassword : null;
    assert.ok(password && password.length >= 20, "a long random password");
    assert.ok(await authenticateUser("admin@example.com", password));
    assert.deepEqual(await seed(env), { createdAdmin: false, email: "admin@example.com" });

    await emptyTheDatabase();
    const other = await seed(env);
    assert.ok(other.createdAdmin && other.generatedPassword && other.generatedPassword !== password, "not a fixed default");
  });

  test("the demo admin removed from its team stays removed on the next start, and the seed writes no audit event", async () => {
    await emptyTheDatabase();
    const env = { ...process.env, DEMO_ADMIN_PASSWORD: "seed-test-passphrase" };
    await seed(env);
    const team = await demoTeam();
    // The owner hands the team over and removes the demo admin (docs/team-settings.md "Roles").
    const owner = await db().user.create({ data: { email: "real-owner@example.test", passwordHash: "x" }, select: { id: true } });
    await db().membership.create({ data: { teamId: team!.id, userId: owner.id, role: "owner" } });
    await db().membership.deleteMany({ where: { teamId: team!.id, user: { email: "admin@example.com" } } });
    const auditBefore = await db().auditEvent.count();

    assert.equal((await seed(env)).createdAdmin, false);
    assert.deepEqual((await demoTeam())?.memberships, [{ userId: owner.id, role: "owner" }]);

    // Not even when the admin's account and the team are gone altogether.
    await db().team.deleteMany();
    await db().user.deleteMany({ where: { email: "admin@example.com" } });
    assert.equal((await seed(env)).createdAdmin, false);
    assert.equal(await db().team.count(), 0);
    assert.equal(await db().user.count({ where: { email: "admin@example.com" } }), 0);
    assert.equal(await db().auditEvent.count(), auditBefore);
  });

  test("a database that already has users (an upgrade) is marked as seeded and gets no demo admin", async () => {
    await emptyTheDatabase();
    await db().user.create({ data: { email: "someone@example.test", passwordHash: "x" } });
    assert.equal((await seed({ ...process.env, DEMO_ADMIN_PASSWORD: "seed-test-passphrase" })).createdAdmin, false);
    assert.equal(await db().user.count(), 1);
    assert.equal(await db().setupStep.count({ where: { name: DEMO_WORKSPACE_STEP } }), 1);
  });

  test("a DEMO_ADMIN_PASSWORD the policy refuses stops the seed before anything is written", async () => {
    await emptyTheDatabase();
    await assert.rejects(seed({ ...process.env, DEMO_ADMIN_PASSWORD: "demo-admin-password" }), PasswordPolicyError);
    await assert.rejects(seed({ ...process.env, DEMO_ADMIN_PASSWORD: "short" }), PasswordPolicyError);
    assert.equal(await db().user.count(), 0);
    assert.equal(await db().setupStep.count(), 0);
  });

  test("several instances seeding an empty database at once make one admin, one team", async () => {
    await emptyTheDatabase();
    const env = { ...process.env, DEMO_ADMIN_PASSWORD: "seed-test-passphrase" };
    const results = await Promise.all([seed(env), seed(env), seed(env)]);
    assert.equal(results.filter((result) => result.createdAdmin).length, 1);
    assert.equal(await db().user.count(), 1);
    assert.equal(await db().team.count(), 1);
  });
});
