import { DriverAdapterError, type SqlDriverAdapter, type SqlQuery, type Transaction } from "@prisma/driver-adapter-utils";
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
//
// A statement sent after the transaction's COMMIT or ROLLBACK is refused, never run. Prisma's
// query interpreter runs one operation's statements one after another on the transaction it
// fetched when the operation began (a nested create, an upsert, a createMany in chunks), and
// its timeout sends ROLLBACK in between: the next statement would queue behind that ROLLBACK
// on the same connection and then run outside any transaction, committed alone (half of an
// operation whose other half was rolled back), on a connection already back in the pool.

/** What adapter-pg 6.19's transaction keeps of its connection (not part of the adapter's types). */
type PgTransaction = Transaction & { client?: pg.PoolClient; cleanup?: () => void };

/** The statements that end a transaction, as Prisma sends them. */
export const TRANSACTION_END = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;

/**
 * Refuses `query` when its transaction has ended (its COMMIT or ROLLBACK sent); returns whether
 * `query` itself ends the transaction. The error is Prisma's "transaction already closed" (P1018).
 */
export function refuseAfterEnd(ended: boolean, query: SqlQuery): boolean {
  if (ended)
    throw new DriverAdapterError({
      kind: "TransactionAlreadyClosed",
      cause: "Transaction already closed: a statement was sent after its COMMIT or ROLLBACK (a timeout's rollback), and was not run",
    });
  return TRANSACTION_END.test(query.sql);
}

/** adapter-pg's transactions, guarded: a failed end gives its connection back, a statement after the end is refused. */
export function guardTransactionEnds(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => guard((await start(isolationLevel)) as PgTransaction);
  return adapter;
}

function guard(tx: PgTransaction): Transaction {
  const client = tx.client;
  // Another adapter, or adapter-pg changed its shape: nothing to guard (the test says so).
  if (!client || typeof client.release !== "function") return tx;
  let released = false;
  let ended = false;
  const release = (error?: Error) => {
    ended = true;
    if (released) return;
    released = true;
    tx.cleanup?.();
    client.release(error);
  };
  const queryRaw = tx.queryRaw.bind(tx);
  const executeRaw = tx.executeRaw.bind(tx);
  tx.queryRaw = async (query: SqlQuery) => {
    if (refuseAfterEnd(ended, query)) ended = true;
    return queryRaw(query);
  };
  tx.executeRaw = async (query: SqlQuery) => {
    const end = refuseAfterEnd(ended, query);
    if (end) ended = true;
    try {
      return await executeRaw(query);
    } catch (error) {
      if (end) release(error instanceof Error ? error : new Error("The transaction's end failed"));
      throw error;
    }
  };
  tx.commit = async () => release();
  tx.rollback = async () => release();
  return tx;
}
