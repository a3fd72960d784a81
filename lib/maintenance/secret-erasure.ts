import type pg from "pg";
import { db } from "../db/client";
import { runPostgresMaintenance } from "../db/maintenance";
import { env } from "../env";
import { log } from "../log/logger";

// Database maintenance for API secrets (lib/maintenance/): after a copy deletes a secret's
// ciphertext, the database's files are made to forget the deleted bytes
// (lib/api-keys/api-key-changes.ts takeSecretForCopy calls it once the copy has committed).

/**
 * Makes the database's files forget deleted ciphertexts (docs/security.md "API secrets
 * at rest"). SQLite zeroes deleted content as it goes (secure_delete, lib/db/sqlite-adapter.ts),
 * but the WAL still holds the page as it was before: a TRUNCATE checkpoint writes the
 * current pages into the main file and empties the WAL. PostgreSQL keeps a deleted row's
 * version in the table's file, and a plain VACUUM compacts a page around its live rows
 * without zeroing what it frees: VACUUM FULL rewrites the table into a new file. The table
 * holds only the secrets not yet copied, so either costs milliseconds.
 */
export function eraseDeletedSecrets(): Promise<void> {
  return erasure.run(async () => {
    if (env().DATABASE_PROVIDER !== "postgres") {
      await db().$queryRawUnsafe(`PRAGMA wal_checkpoint(TRUNCATE)`);
      return;
    }
    // VACUUM FULL copies a deleted row into the new file while some transaction of the
    // database may still see it (an older snapshot: a long report, an autoanalyze), so it
    // first waits for those to end. It needs the table to itself: while copies are running
    // it waits at most half a second for them (holding up later ones no longer), then
    // tries again.
    // The rewrite says how many deleted rows it had to keep ("N dead row versions cannot be
    // removed yet"): a snapshot the wait could not see (PostgreSQL also counts connections
    // still starting up, attached to no database yet, which pg_stat_activity does not show).
    // Then it is done again, a moment later; a CI run with many test files connecting at once
    // kept a ciphertext before this check.
    const deletedBy = latestDeletingTransaction;
    for (let attempt = 1; ; attempt++) {
      let kept = 0;
      try {
        await runPostgresMaintenance(`VACUUM (FULL, VERBOSE) "PendingSecret"`, {
          lockTimeoutMs: 500,
          before: (client) => waitForOlderSnapshots(client, deletedBy),
          onNotice: (notice) => {
            const dead = /(\d+) dead row versions? cannot be removed yet/.exec(notice.detail ?? "");
            if (dead) kept = Math.max(kept, Number(dead[1]));
          },
        });
        if (kept === 0) return;
        if (attempt === MAX_ATTEMPTS) {
          log("warn", "api_key.erase_kept_rows", { rows: kept });
          return;
        }
      } catch (error) {
        if (attempt === MAX_ATTEMPTS) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  });
}

/** Rewrites tried before an erasure gives up (logged). */
const MAX_ATTEMPTS = 5;

// The newest transaction (PostgreSQL xid) that deleted a pending secret in this process.
let latestDeletingTransaction = 0n;
export function noteDeletingTransaction(xid: bigint) {
  if (xid > latestDeletingTransaction) latestDeletingTransaction = xid;
}

/** How long an erasure waits for older snapshots before it rewrites the table anyway. */
const SNAPSHOT_WAIT_MS = 5_000;

/**
 * Waits until no other session of this database can still see rows deleted by `xid`: its
 * snapshot's xmin, or its own transaction, is not newer than `xid`. Such a session makes
 * the rows "recently dead", which VACUUM FULL keeps. Gives up after SNAPSHOT_WAIT_MS and
 * logs it: the rewrite then keeps those rows, and the next copy's erasure removes them.
 */
async function waitForOlderSnapshots(client: pg.Client, xid: bigint): Promise<void> {
  if (xid === 0n) return;
  const deadline = Date.now() + SNAPSHOT_WAIT_MS;
  for (;;) {
    const { rows } = await client.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND (age(backend_xmin) >= age(xid($1::xid8)) OR age(backend_xid) >= age(xid($1::xid8)))`,
      [xid.toString()],
    );
    if (rows[0]!.waiting === 0) return;
    if (Date.now() >= deadline) {
      log("warn", "api_key.erase_waited", { sessions: rows[0]!.waiting, waited_ms: SNAPSHOT_WAIT_MS });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs a clean-up at most once at a time in this process. A caller that arrives while one
 * runs waits for the next run, which starts after it (that one may have begun before the
 * caller's delete committed) and is shared by everyone who arrived meanwhile. A burst of
 * copies then costs two clean-ups, not one each queueing for the table's lock.
 */
class SingleFlight {
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;

  run(work: () => Promise<unknown>): Promise<void> {
    if (!this.#running) {
      this.#running = work()
        .then(() => undefined)
        .finally(() => (this.#running = null));
      return this.#running;
    }
    this.#next ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#next = null;
        return this.run(work);
      });
    return this.#next;
  }
}

const erasure = new SingleFlight();
