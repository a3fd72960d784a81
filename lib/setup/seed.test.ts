import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../test-support/test-database";
import { db } from "../db/client";
import { verifyPassword } from "../users/password";
import { DEFAULT_CURRENCY, workspaceCurrency } from "../workspace/settings";
import { DEMO_TEAM_SLUG, seed } from "./seed";

await useTestDatabase();

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

  test("seed makes the demo admin, who owns team demo with its API source, and sets the currency; twice is once", async () => {
    const env = { ...process.env, WORKSPACE_CURRENCY: "EUR", DEMO_ADMIN_EMAIL: " Owner@Example.com ", DEMO_ADMIN_PASSWORD: "seed-test-passphrase" };
    const first = await seed(env);
    assert.deepEqual(first, { email: "owner@example.com", password: "seed-test-passphrase", createdAdmin: true });
    const second = await seed(env);
    assert.deepEqual(second, { ...first, createdAdmin: false });

    assert.equal(await workspaceCurrency(), "EUR");
    const admin = await db().user.findUniqueOrThrow({ where: { email: "owner@example.com" } });
    assert.ok(await verifyPassword("seed-test-passphrase", admin.passwordHash));
    assert.ok(!admin.passwordHash.includes("seed-test-passphrase"));
    const team = await db().team.findUniqueOrThrow({
      where: { slug: DEMO_TEAM_SLUG },
      include: { sources: { select: { name: true } }, memberships: { select: { userId: true, role: true } } },
    });
    assert.deepEqual(team.sources, [{ name: "API" }]);
    assert.deepEqual(team.memberships, [{ userId: admin.id, role: "owner" }]);
    assert.equal(await db().team.count(), 1);
    assert.equal(await db().user.count(), 1);
  });
});
