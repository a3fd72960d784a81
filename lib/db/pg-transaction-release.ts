import type { SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type pg from "pg";

// Prisma 6.19's transaction manager ends an interactive transaction by sending COMMIT (or
// ROLLBACK) through the transaction and then calling its commit() (or rollback()), and
// @prisma/adapter-pg hands the connection back to the pool only in those two calls. When the
// COMMIT itself fails (a deferred constraint or trigger that refuses, a statement timeout at
// commit, the client-side read timeout after an event-loop stall, a connection cut), commit()
// is never called: the connection stays checked out for good. Each such failure costs the
// pool a connection until requests wait out DB_CONNECT_TIMEOUT_MS on every transaction, and
// $disconnect (pool.end()) waits for it forever. Here a transaction whose COMMIT or ROLLBACK
// fails gives its connection back at once, discarded (its state is unknown), and each
// connection is given back once whatever else calls commit() or rollback().
// lib/db/pg-transaction-release.test.ts fails without it.

/** What adapter-pg 6.19's transaction keeps of its connection (not part of the adapter's types). */
type PgTransaction = Transaction & { client?: pg.PoolClient; cleanup?: () => void };

/** The statements that end a transaction, as Prisma sends them. */
export const TRANSACTION_END = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;

export function releaseConnectionsOfFailedEnds(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => guard((await start(isolationLevel)) as PgTransaction);
  return adapter;
}

function guard(tx: PgTransaction): Transaction {
  const client = tx.client;
  // Another adapter, or adapter-pg changed its shape: nothing to guard (the test says so).
  if (!client || typeof client.release !== "function") return tx;
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    tx.cleanup?.();
    client.release(error);
  };
  const executeRaw = tx.executeRaw.bind(tx);
  tx.executeRaw = async (query: SqlQuery) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      if (TRANSACTION_END.test(query.sql)) release(error instanceof Error ? error : new Error("The transaction's end failed"));
      throw error;
    }
  };
  tx.commit = async () => release();
  tx.rollback = async () => release();
  return tx;
}
