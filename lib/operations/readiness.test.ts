import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { readiness } from "./readiness";

await useTestDatabase();

test("a migrated database is ready; Redis is not configured here", async () => {
  assert.deepEqual(await readiness(), { ok: true, checks: { database: { state: "ok" }, redis: { state: "not configured" } } });
});

test("a migration this build ships but the database lacks makes the instance not ready, naming it", async () => {
  const [last] = await db().$queryRaw<{ migration_name: string }[]>`
    SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name" DESC LIMIT 1`;
  await db().$executeRaw`UPDATE "_prisma_migrations" SET "rolled_back_at" = "finished_at" WHERE "migration_name" = ${last!.migration_name}`;
  try {
    assert.deepEqual(await readiness(), {
      ok: false,
      checks: { database: { state: "failing", problem: "1 migration(s) not applied" }, redis: { state: "not configured" } },
    });
  } finally {
    await db().$executeRaw`UPDATE "_prisma_migrations" SET "rolled_back_at" = NULL WHERE "migration_name" = ${last!.migration_name}`;
  }
});
