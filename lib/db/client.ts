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
  if (config.DATABASE_PROVIDER === "postgres") {
    const adapter = new PrismaPg({
      connectionString: config.DATABASE_URL,
      max: config.DB_POOL_SIZE,
      connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
      statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
      query_timeout: config.DB_STATEMENT_TIMEOUT_MS + 1_000,
    });
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  return new SqliteClient({ adapter: sqliteAdapter(config.DATABASE_URL) });
}

const globalForDb = globalThis as unknown as { leadIntakeDb?: Db };

/** The process-wide Prisma client (one per process, reused across hot reloads). */
export function db(): Db {
  globalForDb.leadIntakeDb ??= createClient();
  return globalForDb.leadIntakeDb;
}
