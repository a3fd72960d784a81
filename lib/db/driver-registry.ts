import type Database from "better-sqlite3";
import type pg from "pg";

// The database driver under the app's Prisma client, as its adapters register it (this
// module imports nothing of the app's, so the adapters and the client can both use it), for the one path that bypasses
// Prisma: the intake's hot path (lib/leads/lead-writer.ts, docs/performance.md). The
// adapters in lib/db/client.ts register the connection they open here, so the hot path
// uses the same SQLite connection, behind the same lock, and the same pg.Pool as Prisma.

/**
 * SQLite: `run` takes the adapter's lock (the one that keeps Prisma's transactions
 * isolated), runs `work` synchronously on Prisma's own connection and releases the lock.
 * A second connection would busy-wait synchronously while a Prisma transaction holds the
 * write lock, stalling the event loop that transaction needs to commit.
 */
export type SqliteDriver = { provider: "sqlite"; run: <T>(work: (database: Database.Database) => T) => Promise<T> };
/** PostgreSQL: the pool Prisma's adapter uses. */
export type PostgresDriver = { provider: "postgres"; pool: pg.Pool };
export type Driver = SqliteDriver | PostgresDriver;

type Registered = { driver: Driver; open: () => boolean };

const globalForDriver = globalThis as unknown as { leadIntakeDriver?: Registered | null };

/** Called by the app client's adapter each time Prisma connects. */
export function registerDriver(driver: Driver, open: () => boolean): void {
  globalForDriver.leadIntakeDriver = { driver, open };
}

/** The registered driver while its connection is open, else null. */
export function registeredDriver(): Driver | null {
  const registered = globalForDriver.leadIntakeDriver;
  return registered?.open() ? registered.driver : null;
}
