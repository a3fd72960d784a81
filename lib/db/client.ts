import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaClient as SqliteClient, type Prisma } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";
import { env } from "../env";
import { registerDriver } from "./driver-registry";
import { newPool } from "./pg-pool";
import { guardTransactionEnds } from "./pg-transaction-release";
import { sqliteAdapter } from "./sqlite-adapter";

// The app is typed against the SQLite client; the PostgreSQL client has the same
// models and inputs (one models.prisma), so it is cast once, here.
export type Db = SqliteClient;
/** The client inside an interactive transaction (`db().$transaction(async (tx) => …)`). */
export type Tx = Prisma.TransactionClient;

function createClient(): Db {
  const config = env();
  return clientFor(config.DATABASE_URL, config.DATABASE_PROVIDER, registerDriver);
}

/**
 * A client of its own for another database than the app's (the operator's copy between
 * databases); everything else uses db(). The app's client registers its driver
 * (lib/db/driver.ts) for the intake's hot path.
 */
export function clientFor(url: string, provider: "sqlite" | "postgres", register?: typeof registerDriver): Db {
  const adapter = adapterFor(url, provider, register);
  return provider === "postgres" ? (new PostgresClient({ adapter }) as unknown as Db) : new SqliteClient({ adapter });
}

/** The driver adapter the app's clients use for `url` (its transactions' guards included). */
export function adapterFor(
  url: string,
  provider: "sqlite" | "postgres",
  register?: typeof registerDriver,
): SqlMigrationAwareDriverAdapterFactory {
  return provider === "postgres" ? postgresAdapter(url, register) : sqliteAdapter(url, register);
}

/**
 * adapter-pg on a pg.Pool of ours, a new one at each connect (Prisma ends it on
 * $disconnect), so the hot path queries through the very pool Prisma uses.
 */
function postgresAdapter(url: string, register?: typeof registerDriver): SqlMigrationAwareDriverAdapterFactory {
  const config = env();
  const poolConfig: pg.PoolConfig = {
    connectionString: url,
    max: config.DB_POOL_SIZE,
    connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
    query_timeout: config.DB_STATEMENT_TIMEOUT_MS + 1_000,
  };
  const shadow = new PrismaPg(poolConfig);
  return {
    provider: shadow.provider,
    adapterName: shadow.adapterName,
    connect() {
      const pool = newPool(poolConfig);
      register?.({ provider: "postgres", pool }, () => !pool.ending && !pool.ended);
      // A transaction whose COMMIT fails would keep its connection, and a statement sent after
      // its end would run outside it: lib/db/pg-transaction-release.ts.
      return new PrismaPg(pool, { disposeExternalPool: true }).connect().then(guardTransactionEnds);
    },
    connectToShadowDb: () => shadow.connectToShadowDb(),
  };
}

const globalForDb = globalThis as unknown as { leadIntakeDb?: Db };

/** The process-wide Prisma client (one per process, reused across hot reloads). */
export function db(): Db {
  globalForDb.leadIntakeDb ??= createClient();
  return globalForDb.leadIntakeDb;
}
