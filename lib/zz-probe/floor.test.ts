import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
await useTestDatabase();
test("one query", async () => {
  assert.equal(await db().team.count(), 0);
});
