import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import pg from "pg";
import { db } from "../../lib/db/client";
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "../../lib/db/database-url";
import { env } from "../../lib/env";
import { migrate } from "../../lib/setup/migrate";
import { assertPostgresBinaries } from "./postgres-cluster";

// Each node:test file that touches the database calls useTestDatabase() once, at the
// top, and gets a database of its own. `npm test` (scripts/test.ts) runs those files
// twice, with TEST_DATABASE_URL naming a migrated template: a SQLite file, then a
// PostgreSQL database on a private cluster (./postgres-cluster.ts). Each file gets a
// copy of the template (a file copy, or CREATE DATABASE … TEMPLATE: milliseconds
// instead of replaying the migrations). Without TEST_DATABASE_URL (one file run by
// hand) a fresh SQLite file is migrated.

export type TestDatabase = {
  provider: DatabaseProvider;
  /** The DATABASE_URL this process now uses. */
  url: string;
  /** The temp folder holding DATA_DIR (and, on SQLite, the database file). */
  dir: string;
  /** Absolute path of the SQLite file; null on PostgreSQL. */
  file: string | null;
  /**
   * Every byte the database holds. SQLite: the main file, its WAL and shared memory,
   * free pages included. PostgreSQL: a pg_dump of the database (every live value), then,
   * after a CHECKPOINT, every file of the database's own folder (tables, indexes, TOAST:
   * dead row versions and free space included). Not the cluster's WAL (pg_wal), which
   * is the cluster's, shared by all its databases.
   */
  storedBytes: () => Buffer;
};

export type TestDatabaseOptions = {
  /**
   * "sqlite" for tests of SQLite itself (pragmas, file locks): they get a SQLite file
   * whatever TEST_DATABASE_URL says, and scripts/test.ts leaves them out of the
   * PostgreSQL pass. "postgres" for tests of PostgreSQL itself (pool, timeouts): they
   * need a PostgreSQL TEST_DATABASE_URL and run in the PostgreSQL pass only.
   */
  provider?: "sqlite" | "postgres";
};

async function withAdmin<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** How long the database's disconnect after a file may take before the file fails. */
const DISCONNECT_LIMIT_MS = 30_000;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Gives this test process its own migrated database (DATABASE_URL) and DATA_DIR in a
 * temp folder. Call it before anything calls db() or env(): both read the environment
 * once per process. Disconnects and cleans up after the file.
 */
export async function useTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "lead-intake-test-"));
  let template = process.env.TEST_DATABASE_URL?.trim() || null;
  if (options.provider === "postgres" && (!template || databaseProvider(template) !== "postgres")) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      "This test needs PostgreSQL: run it through `npm test` (which starts a private cluster), or set " +
        "TEST_DATABASE_URL=postgresql://… to a migrated template database on a server you own.",
    );
  }
  if (options.provider === "sqlite" && template && databaseProvider(template) !== "sqlite") template = null;
  const provider = template ? databaseProvider(template) : "sqlite";

  let url: string;
  let dropDatabase: (() => Promise<void>) | null = null;
  if (provider === "postgres") {
    const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const templateName = decodeURIComponent(new URL(template!).pathname.slice(1));
    await withAdmin(template!, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(templateName)}`));
    const target = new URL(template!);
    target.pathname = `/${name}`;
    url = target.toString();
    dropDatabase = () =>
      withAdmin(url, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)));
  } else {
    url = `file:${path.join(dir, "test.db")}`;
    if (template) copyFileSync(sqliteFilePath(template), sqliteFilePath(url));
  }

  process.env.DATABASE_URL = url;
  process.env.DATA_DIR = path.join(dir, "data");
  delete process.env.SECRET_ENCRYPTION_KEY;
  delete process.env.WORKSPACE_CURRENCY;
  if (env().DATABASE_URL !== url) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error("useTestDatabase() must run before anything reads the environment (env() or db())");
  }
  if (provider === "sqlite" && !template) migrate();

  after(async () => {
    // A connection never given back to the pool (a leaked transaction) makes $disconnect wait
    // forever, and with it the file and the whole stage: the file fails instead, named, and
    // its database is still dropped (which ends the leaked sessions).
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      db()
        .$disconnect()
        .then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(resolve, DISCONNECT_LIMIT_MS, false))),
    ]);
    clearTimeout(timer);
    await dropDatabase?.();
    rmSync(dir, { recursive: true, force: true });
    if (!ended) {
      throw new Error(
        `db().$disconnect() did not end within ${DISCONNECT_LIMIT_MS / 1000} s: a pool connection was never given back (a transaction that did not end?)`,
      );
    }
  });

  const file = provider === "sqlite" ? sqliteFilePath(url) : null;
  return {
    provider,
    url,
    dir,
    file,
    storedBytes: () => (file ? sqliteBytes(file) : Buffer.concat([pgDump(url), pgDatabaseFiles(url)])),
  };
}

function sqliteBytes(file: string): Buffer {
  const dir = path.dirname(file);
  return Buffer.concat(
    readdirSync(dir)
      .filter((name) => name.startsWith(path.basename(file)))
      .map((name) => readFileSync(path.join(dir, name))),
  );
}

function pgDump(url: string): Buffer {
  const result = spawnSync(path.join(assertPostgresBinaries(), "pg_dump"), ["--data-only", "--no-owner", url], { maxBuffer: 256 << 20 });
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** After a CHECKPOINT (so every change is in the files), the files of the database's folder. */
function pgDatabaseFiles(url: string): Buffer {
  const result = spawnSync(
    path.join(assertPostgresBinaries(), "psql"),
    [
      url,
      "-X",
      "-A",
      "-t",
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      "CHECKPOINT",
      "-c",
      "SELECT current_setting('data_directory') || '/base/' || oid FROM pg_database WHERE datname = current_database()",
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  const folder = result.stdout.trim();
  return Buffer.concat(readdirSync(folder).map((name) => readFileSync(path.join(folder, name))));
}
