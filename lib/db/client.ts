import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient, type Prisma } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";
import { env } from "../env";
import { sqliteAdapter } from "./sqlite-adapter";

// The app is typed against the SQLite client; the PostgreSQL client has the same
// models and inputs (one models.prisma), so it is cast once, here.
export type Db = SqliteClient;
/** The client inside an interactive transaction (`db().$transaction(async (tx) => …)`). */
export type Tx = Prisma.TransactionClient;

function createClient(): Db {
  const config = env();
  return clientFor(config.DATABASE_URL, config.DATABASE_PROVIDER);
}

/**
 * A client of its own for another database than the app's (the operator's copy between
 * databases); everything else uses db().
 */
export function clientFor(url: string, provider: "sqlite" | "postgres"): Db {
  const config = env();
  if (provider === "postgres") {
    const adapter = new PrismaPg({
      connectionString: url,
      max: config.DB_POOL_SIZE,
      connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
      statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
      query_timeout: config.DB_STATEMENT_TIMEOUT_MS + 1_000,
    });
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  return new SqliteClient({ adapter: sqliteAdapter(url) });
}

const globalForDb = globalThis as unknown as { leadIntakeDb?: Db };

/** The process-wide Prisma client (one per process, reused across hot reloads). */
export function db(): Db {
  globalForDb.leadIntakeDb ??= createClient();
  return globalForDb.leadIntakeDb;
}
