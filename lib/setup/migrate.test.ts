import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { migrate, sqliteUpToDate } from "./migrate";

// `npm start` skips Prisma's `migrate deploy` on a SQLite file that has every shipped
// migration: the schema engine cannot lock a file another process has open, so a second
// instance (or a test server) on a database in use would fail to start.

const dir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-migrate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a missing or empty file is not up to date; a migrated one is; a rolled-back migration makes it pending again", () => {
  const file = path.join(dir, "app.db");
  assert.equal(sqliteUpToDate(file), false, "no file");
  new Database(file).close();
  assert.equal(sqliteUpToDate(file), false, "no migrations table");
  migrate({ ...process.env, DATABASE_URL: `file:${file}` });
  assert.equal(sqliteUpToDate(file), true);

  const database = new Database(file);
  database
    .prepare(
      `UPDATE "_prisma_migrations" SET "rolled_back_at" = CURRENT_TIMESTAMP WHERE "migration_name" = (SELECT MAX("migration_name") FROM "_prisma_migrations")`,
    )
    .run();
  database.close();
  assert.equal(sqliteUpToDate(file), false);
});

test("migrate on an up-to-date file in use by another connection succeeds (the schema engine is not run)", () => {
  const file = path.join(dir, "in-use.db");
  migrate({ ...process.env, DATABASE_URL: `file:${file}` });
  const other = new Database(file);
  other.pragma("journal_mode = WAL");
  other.prepare(`SELECT COUNT(*) FROM "_prisma_migrations"`).get();
  try {
    assert.doesNotThrow(() => migrate({ ...process.env, DATABASE_URL: `file:${file}` }));
  } finally {
    other.close();
  }
});
