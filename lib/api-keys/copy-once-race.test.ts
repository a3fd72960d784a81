import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, test } from "node:test";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { useTestDatabase } from "../testing/test-database";
import { ApiError } from "../http/api-error";
import { createApiKey, deleteApiKey, takeSecretForCopy, type NewApiKey } from "./api-key-store";
import { authenticate } from "./authenticate";

// Copy-once and delete on the database in force (SQLite, and PostgreSQL under
// `npm test`). Across processes and app instances: e2e/postgres/multi-instance.test.ts.

const database = await useTestDatabase();
after(() => db().$disconnect());

async function authenticateKeyFor(key: NewApiKey): Promise<string> {
  try {
    await authenticate(new Headers({ "X-API-Key": key.keyId, "X-API-Secret": key.secret }));
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error.error;
    throw error;
  }
}

test(`${database.provider}: of simultaneous copies of a secret exactly one gets it`, async () => {
  const team = await createTeam({ slug: `copy-${randomBytes(4).toString("hex")}`, name: "Copy" });
  const keys = await Promise.all(Array.from({ length: 10 }, () => createApiKey({ teamId: team.id })));
  for (const key of keys) {
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () => takeSecretForCopy({ keyId: key.keyId, teamId: team.id, userId: null })),
    );
    assert.deepEqual(
      attempts.filter((secret) => secret !== null),
      [key.secret],
    );
    assert.equal(await takeSecretForCopy({ keyId: key.keyId, teamId: team.id, userId: null }), null);
  }
});

test(`${database.provider}: a deleted key is refused on the very next lookup`, async () => {
  const team = await createTeam({ slug: `del-${randomBytes(4).toString("hex")}`, name: "Delete" });
  const key = await createApiKey({ teamId: team.id });
  assert.equal(await authenticateKeyFor(key), "ok");
  assert.equal(await deleteApiKey({ keyId: key.keyId, teamId: team.id }), true);
  assert.equal(await authenticateKeyFor(key), "Invalid API key");
});
