import pg from "pg";
import { env } from "../env";

// Maintenance statements PostgreSQL will not run inside a transaction (VACUUM), on a
// connection of their own rather than one of the app's pool: while a statement waits for
// its lock it must hold up neither the pool nor, for long, the queries queued behind it.

/**
 * Runs `sql` on a short-lived connection with a lock timeout: when the table is busy the
 * statement gives up after `lockTimeoutMs` (throwing) instead of queueing everyone
 * behind its lock request. `before` runs first on the same connection; `onNotice` hears
 * what the statement reports.
 */
export async function runPostgresMaintenance(
  sql: string,
  options: {
    lockTimeoutMs: number;
    before?: (client: pg.Client) => Promise<void>;
    /** The statement's notices (VACUUM VERBOSE's report). */
    onNotice?: (notice: { message?: string; detail?: string }) => void;
  },
): Promise<void> {
  const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: env().DB_CONNECT_TIMEOUT_MS });
  if (options.onNotice) client.on("notice", options.onNotice);
  await client.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(options.lockTimeoutMs))}`);
    await client.query(`SET statement_timeout = ${env().DB_STATEMENT_TIMEOUT_MS}`);
    await options.before?.(client);
    await client.query(sql);
  } finally {
    await client.end();
  }
}
