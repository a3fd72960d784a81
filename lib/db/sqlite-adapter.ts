import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type Database from "better-sqlite3";
import { sqliteFilePath } from "./database-url";
import { refuseAfterEnd } from "./pg-transaction-release";
import type { SqliteDriver } from "./driver-registry";

/**
 * A minimal FIFO lock. better-sqlite3 runs every query synchronously, so holding
 * it costs only the time the transaction is open.
 */
class Lock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

// adapter-better-sqlite3 6.19 shares one connection between an open interactive
// transaction and every other query, so a write from another request issued while
// a transaction awaits would silently join (and roll back with) that transaction.
// Serialising plain queries behind open transactions keeps each transaction isolated.
function serialise(inner: SqlDriverAdapter, lock: Lock): SqlDriverAdapter {
  const exclusive = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await lock.acquire();
    try {
      return await run();
    } finally {
      release();
    }
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    queryRaw: (query) => exclusive(() => inner.queryRaw(query)),
    executeRaw: (query) => exclusive(() => inner.executeRaw(query)),
    executeScript: (script) => exclusive(() => inner.executeScript(script)),
    dispose: () => inner.dispose(),
    // The transaction is begun here, IMMEDIATE: it takes SQLite's write lock at BEGIN,
    // waiting out the busy timeout if another process (the keys CLI, a second server on
    // the same file) holds it. The stock adapter's deferred BEGIN took the lock only at the
    // first write, and when another connection had written since this transaction's first
    // read, that write failed at once with SQLITE_BUSY (no busy wait can help a stale
    // snapshot): a role change answered "Operation has timed out". Prisma sends COMMIT and
    // ROLLBACK itself (no phantom query), so commit and rollback only release the lock.
    async startTransaction(isolationLevel) {
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return inner.startTransaction(isolationLevel);
      const release = await lock.acquire();
      try {
        await inner.executeRaw({ sql: "BEGIN IMMEDIATE", args: [], argTypes: [] });
      } catch (error) {
        release();
        throw error;
      }
      let open = true;
      // Its COMMIT or ROLLBACK sent: a statement after it is refused, not run on the shared
      // connection outside the transaction (lib/db/pg-transaction-release.ts says when).
      let ended = false;
      const finish = async () => {
        ended = true;
        if (!open) return;
        open = false;
        release();
      };
      return {
        provider: inner.provider,
        adapterName: inner.adapterName,
        options: { usePhantomQuery: false },
        async queryRaw(query) {
          if (refuseAfterEnd(ended, query)) ended = true;
          return inner.queryRaw(query);
        },
        // A COMMIT that fails (a deferred constraint, a full disk) leaves SQLite's transaction
        // open, and Prisma then calls neither commit() nor rollback(): it is rolled back and
        // the lock freed here, or every later query would wait for the lock forever
        // (lib/db/pg-transaction-release.test.ts, on SQLite).
        async executeRaw(query) {
          const end = refuseAfterEnd(ended, query);
          if (end) ended = true;
          try {
            return await inner.executeRaw(query);
          } catch (error) {
            if (end) {
              await inner.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
              await finish();
            }
            throw error;
          }
        },
        commit: finish,
        rollback: finish,
      };
    },
  };
}

/** The name of the app connection's Unicode LOWER on SQLite (registered on connect). */
export const SQLITE_LOWER = "lower_unicode";

/** The better-sqlite3 connection inside adapter-better-sqlite3 6.19's adapter (its `client`). */
function connectionOf(inner: SqlDriverAdapter): Database.Database {
  const client = (inner as unknown as { client?: Database.Database }).client;
  if (!client || typeof client.prepare !== "function")
    throw new Error("adapter-better-sqlite3 no longer exposes its connection as `client`");
  return client;
}

/**
 * The app's SQLite adapter: WAL, a busy timeout, enforced foreign keys, isolated
 * transactions. `onConnect` receives the connection's driver (lib/db/driver.ts): the same
 * connection, behind the same lock.
 */
export function sqliteAdapter(
  url: string,
  onConnect?: (driver: SqliteDriver, open: () => boolean) => void,
): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaBetterSQLite3({ url: sqliteFilePath(url), timeout: 10_000 });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect() {
      const inner = await base.connect();
      // WAL roughly doubles write throughput (../shared/STACK.md) and lets readers
      // run beside the single writer; NORMAL sync is durable across process crashes.
      // secure_delete zeroes deleted content, so a copied secret's ciphertext does not
      // linger in free space (lib/maintenance/secret-erasure.ts eraseDeletedSecrets).
      await inner.executeScript(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;",
      );
      const lock = new Lock();
      const connection = connectionOf(inner);
      // SQLite's LOWER folds ASCII only; this folds every letter, as PostgreSQL's LOWER does,
      // for searches of text that has no folded key column (lib/spam/quarantine-store.ts).
      connection.function(SQLITE_LOWER, { deterministic: true }, (text: unknown) => (typeof text === "string" ? text.toLowerCase() : text));
      onConnect?.(
        {
          provider: "sqlite",
          async run(work) {
            const release = await lock.acquire();
            try {
              return work(connection);
            } finally {
              release();
            }
          },
        },
        () => connection.open,
      );
      return serialise(inner, lock);
    },
    connectToShadowDb: () => base.connectToShadowDb(),
  };
}
