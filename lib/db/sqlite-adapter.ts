import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { sqliteFilePath } from "./database-url";

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
function serialise(inner: SqlDriverAdapter): SqlDriverAdapter {
  const lock = new Lock();
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
    async startTransaction(isolationLevel) {
      const release = await lock.acquire();
      let tx: Transaction;
      try {
        tx = await inner.startTransaction(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
      const finish = (end: () => Promise<void>) => async () => {
        try {
          await end();
        } finally {
          release();
        }
      };
      return {
        provider: tx.provider,
        adapterName: tx.adapterName,
        options: tx.options,
        queryRaw: (query) => tx.queryRaw(query),
        executeRaw: (query) => tx.executeRaw(query),
        commit: finish(() => tx.commit()),
        rollback: finish(() => tx.rollback()),
      };
    },
  };
}

/** The app's SQLite adapter: WAL, a busy timeout, enforced foreign keys, isolated transactions. */
export function sqliteAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaBetterSQLite3({ url: sqliteFilePath(url), timeout: 10_000 });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect() {
      const inner = await base.connect();
      // WAL roughly doubles write throughput (../shared/STACK.md) and lets readers
      // run beside the single writer; NORMAL sync is durable across process crashes.
      await inner.executeScript(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
      );
      return serialise(inner);
    },
    connectToShadowDb: () => base.connectToShadowDb(),
  };
}
