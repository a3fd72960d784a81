import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseProvider, databaseUrl, sqliteFilePath } from "../db/database-url";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs the Prisma CLI with the config of the provider DATABASE_URL names. */
export function runPrisma(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const url = databaseUrl(env);
  const provider = databaseProvider(url);
  if (provider === "sqlite") mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const config = provider === "postgres" ? ["--config", "prisma.pg.config.ts"] : [];
  const result = spawnSync(path.join(ROOT, "node_modules/.bin/prisma"), [...args, ...config], {
    cwd: ROOT,
    env: { ...env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`prisma ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/**
 * Whether a SQLite file already has every migration this build ships, read with a plain
 * read-only connection. Prisma's schema engine cannot get its lock while another process
 * has the file open (it fails with a "SocketTimeout" connector error after the busy
 * timeout), so a second instance, a CLI or a test server started on a database in use
 * must not run `migrate deploy` when there is nothing to apply.
 */
export function sqliteUpToDate(file: string): boolean {
  if (!existsSync(file)) return false;
  const shipped = readdirSync(path.join(ROOT, "prisma", "sqlite", "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const table = database.prepare(`SELECT 1 FROM "sqlite_master" WHERE "type" = 'table' AND "name" = '_prisma_migrations'`).get();
    if (!table) return false;
    const rows = database
      .prepare(`SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`)
      .all() as { migration_name: string }[];
    const applied = new Set(rows.map((row) => row.migration_name));
    return shipped.every((name) => applied.has(name));
  } finally {
    database.close();
  }
}

/** Applies every pending migration of the configured database (SQLite: none pending, nothing run). */
export function migrate(env: NodeJS.ProcessEnv = process.env): void {
  const url = databaseUrl(env);
  if (databaseProvider(url) === "sqlite" && sqliteUpToDate(sqliteFilePath(url))) return;
  runPrisma(["migrate", "deploy"], env);
}
