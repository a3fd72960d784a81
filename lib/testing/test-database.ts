import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "../db/database-url";
import { migrate } from "../setup/migrate";

// node:test files call useTestDatabase() before their first db() call. `npm test`
// (scripts/test.ts) runs the node:test files twice and sets TEST_DATABASE_URL to a
// migrated template database: a SQLite file, then a PostgreSQL database on a private
// cluster. Each test file gets its own copy, so files running in parallel never
// share rows. Without TEST_DATABASE_URL a fresh SQLite file is migrated here.

export type TestDatabase = { url: string; provider: DatabaseProvider };

async function clonePostgres(templateUrl: string): Promise<string> {
  const template = new URL(templateUrl);
  const templateName = decodeURIComponent(template.pathname.slice(1));
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new URL(templateUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    // A template clone is a file copy: milliseconds, instead of replaying migrations.
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  template.pathname = `/${name}`;
  return template.toString();
}

/** Points this process at its own migrated database (DATABASE_URL, DATA_DIR). */
export async function useTestDatabase(): Promise<TestDatabase> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "lead-intake-test-"));
  process.env.DATA_DIR ??= scratch;
  const template = process.env.TEST_DATABASE_URL?.trim();
  let url: string;
  if (!template) {
    url = `file:${path.join(scratch, "test.db")}`;
    migrate({ ...process.env, DATABASE_URL: url });
  } else if (databaseProvider(template) === "postgres") {
    url = await clonePostgres(template);
  } else {
    url = `file:${path.join(scratch, "test.db")}`;
    copyFileSync(sqliteFilePath(template), sqliteFilePath(url));
  }
  process.env.DATABASE_URL = url;
  return { url, provider: databaseProvider(url) };
}
