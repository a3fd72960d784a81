import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { toApiError } from "../http/envelope";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "./client";

// DB_POOL_SIZE and DB_CONNECT_TIMEOUT_MS reach the pg pool: it opens no more than
// DB_POOL_SIZE connections, and a request that finds them all busy ends in the 503
// envelope after DB_CONNECT_TIMEOUT_MS instead of waiting. PostgreSQL pass of `npm test`
// only.
//
// The two queries that hold the pool's connections must wait on the lock for as long as
// the test needs, so the statement timeout here is far above anything a loaded machine
// adds. With 3 s (postgres-limits.test.ts's value) a process starved for 3 s between the
// poll and the third query (reproduced with a pause) lets the server cancel them, a
// connection comes free and the third query is served: the likely failure under npm
// test's lanes side by side.

process.env.DB_POOL_SIZE = "2";
process.env.DB_STATEMENT_TIMEOUT_MS = "120000";
process.env.DB_CONNECT_TIMEOUT_MS = "250";
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

test("DB_POOL_SIZE bounds the connections; a request that finds the pool busy gets 503 after DB_CONNECT_TIMEOUT_MS", async () => {
  // Warm the pool with concurrent queries: it opens no more than DB_POOL_SIZE connections.
  await Promise.all(Array.from({ length: 6 }, () => db().$queryRawUnsafe("SELECT 1")));
  assert.equal(await backends(), 2);

  try {
    // Occupy both pooled connections: two queries wait on a lock the observer holds.
    await observer.query("SELECT pg_advisory_lock(4242)");
    // (.then: a Prisma query is lazy and runs only once awaited or then-ed.)
    const busy = [0, 1].map(() =>
      db()
        .$queryRawUnsafe("SELECT 1 AS held FROM pg_advisory_xact_lock(4242)")
        .then(() => undefined),
    );
    const deadline = Date.now() + 20_000;
    let waiting = 0;
    while (waiting < 2 && Date.now() < deadline) {
      waiting = await backends("wait_event_type = 'Lock'");
      if (waiting < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(waiting, 2, "both pooled connections wait on the lock");

    const error = await failure(db().lead.count());
    assert.equal(toApiError(error).status, 503, String(error));
    await observer.query("SELECT pg_advisory_unlock(4242)");
    await Promise.all(busy);
    assert.equal(await db().lead.count(), 0, "the pool serves again once a connection is free");
  } finally {
    await closeObserver();
  }
});
