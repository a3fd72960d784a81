import assert from "node:assert/strict";
import type pg from "pg";

// PostgreSQL tests that hold a lock and need to know when another transaction has queued
// behind it (the work under test waits rather than finishes), read it from pg_stat_activity.

const WAITING = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
const POLL_MS = 5;

/** How many backends of the connection's database wait on a lock right now. */
export async function backendsWaitingOnLock(pool: pg.Pool | pg.ClientBase): Promise<number> {
  return (await pool.query<{ n: number }>(WAITING)).rows[0]!.n;
}

/**
 * Resolves once a backend of the database waits on a lock. `ended` tells whether the work
 * that should wait has ended already: the test then fails with `message` instead of polling
 * for ever.
 */
export async function untilOneWaitsOnLock(
  pool: pg.Pool | pg.ClientBase,
  ended: () => boolean = () => false,
  message = "the work ended without waiting on a lock",
): Promise<void> {
  while ((await backendsWaitingOnLock(pool)) < 1) {
    assert.equal(ended(), false, message);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
