import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { toApiError } from "../http/envelope";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "./client";

// DB_STATEMENT_TIMEOUT_MS reaches the pg pool: a statement slower than the timeout ends
// in the 503 envelope instead of waiting. (DB_POOL_SIZE and DB_CONNECT_TIMEOUT_MS:
// postgres-pool-limits.test.ts.) PostgreSQL pass of `npm test` only.

process.env.DB_STATEMENT_TIMEOUT_MS = "3000";
const database = await useTestDatabase({ provider: "postgres" });

async function failure(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  assert.fail("expected the query to fail");
}

// A separate connection (not from the app's pool) to watch and hold locks with; closed
// before the helper drops the database.
const observer = new pg.Client({ connectionString: database.url });
await observer.connect();
let observerOpen = true;
async function closeObserver(): Promise<void> {
  if (observerOpen) await observer.end();
  observerOpen = false;
}

/** This process's pool connections to its database, as PostgreSQL sees them. */
async function backends(filter = "true"): Promise<number> {
  const { rows } = await observer.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${filter}`,
  );
  return Number(rows[0]!.n);
}

test("a statement slower than DB_STATEMENT_TIMEOUT_MS is cancelled by the server → 503", async () => {
  try {
    const error = await failure(db().$queryRawUnsafe("SELECT pg_sleep(30)"));
    const answer = toApiError(error);
    assert.equal(answer.status, 503, String(error));
    assert.equal(answer.error, "The database is unavailable; retry shortly");
    assert.equal(await backends("query LIKE '%pg_sleep(30)%' AND state = 'active'"), 0, "the slow statement no longer runs");
  } finally {
    await closeObserver();
  }
});
