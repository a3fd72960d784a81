import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createLead } from "../leads/create-lead";
import { parseLeadInput } from "../leads/parse-lead-input";
import { createTeam } from "../teams/team-store";
import { startBackupSchedule } from "./backup-schedule";
import { BackupError, backupSqlite, pruneBackups, restoreSqlite, verifyBackup, writePidFile } from "./sqlite-backup";

const database = await useTestDatabase({ provider: "sqlite" });
const live = database.file!;
const team = await createTeam({ slug: "backup", name: "Backup" });
for (const name of ["Ada Lovelace", "Grace Hopper", "Mary Somerville"]) {
  await createLead({ team, apiKeyId: null, input: parseLeadInput([["name", name]]) });
}
const scratch = () => mkdtempSync(path.join(tmpdir(), "lead-intake-backup-test-"));

test("a backup is a checked copy holding every lead; an existing file is never overwritten", async () => {
  const target = path.join(scratch(), "copy.db");
  assert.equal((await backupSqlite(live, target)).leads, 3);
  const copy = new Database(target, { readonly: true });
  assert.equal(copy.pragma("integrity_check", { simple: true }), "ok");
  assert.deepEqual(
    (copy.prepare(`SELECT "firstName" FROM "Lead" ORDER BY "seq"`).all() as { firstName: string }[]).map((r) => r.firstName),
    ["Ada", "Grace", "Mary"],
  );
  copy.close();
  await assert.rejects(backupSqlite(live, target), /already exists/);
});

test("verifyBackup refuses what is no Lead Intake database", () => {
  const dir = scratch();
  const garbage = path.join(dir, "garbage.db");
  writeFileSync(garbage, "PK\u0003\u0004 this is a zip, not a database".repeat(100));
  assert.throws(() => verifyBackup(garbage), BackupError);
  const other = path.join(dir, "other.db");
  new Database(other).exec("CREATE TABLE t (x)").close();
  assert.throws(() => verifyBackup(other), /no _prisma_migrations table/);
  assert.throws(() => verifyBackup(path.join(dir, "missing.db")), /does not exist/);
});

test("a damaged copy fails the integrity check", async () => {
  const target = path.join(scratch(), "damaged.db");
  await backupSqlite(live, target);
  const bytes = readFileSync(target);
  // Scribble over the middle pages, leaving the header readable.
  bytes.fill(0x5a, 4096 * 2, Math.min(bytes.length, 4096 * 8));
  writeFileSync(target, bytes);
  assert.throws(() => verifyBackup(target), BackupError);
});

test("restore refuses while the app runs, then replaces the database and its WAL, keeping the old file", async () => {
  const dir = scratch();
  const backup = path.join(dir, "backup.db");
  await backupSqlite(live, backup);
  const target = path.join(dir, "app.db");
  const dataDir = path.join(dir, "data");
  writeFileSync(target, "old");
  writeFileSync(`${target}-wal`, "stale wal");
  writePidFile(dataDir, process.pid);
  assert.throws(() => restoreSqlite(backup, target, dataDir), /The app is running \(pid \d+/);
  writePidFile(dataDir, 2 ** 22 + 12345); // no such process
  assert.equal(restoreSqlite(backup, target, dataDir).leads, 3);
  assert.equal(existsSync(`${target}-wal`), false);
  assert.equal(readFileSync(`${target}.before-restore`, "utf8"), "old");
  assert.equal(verifyBackup(target).leads, 3);
});

test("scheduled backups keep the newest N", async () => {
  const dir = scratch();
  for (const [i, name] of [
    "lead-intake-20260101T000000Z.db",
    "lead-intake-20260102T000000Z.db",
    "lead-intake-20260103T000000Z.db",
  ].entries()) {
    writeFileSync(path.join(dir, name), "x");
    utimesSync(path.join(dir, name), 1_700_000_000 + i, 1_700_000_000 + i);
  }
  writeFileSync(path.join(dir, "keep-me.db"), "not part of the series");
  assert.deepEqual(pruneBackups(dir, 2), ["lead-intake-20260101T000000Z.db"]);
  assert.deepEqual(readdirSync(dir).sort(), ["keep-me.db", "lead-intake-20260102T000000Z.db", "lead-intake-20260103T000000Z.db"]);
});

test("the schedule takes backups on its own and prunes them", async () => {
  const dir = scratch();
  const stop = startBackupSchedule({ database: live, dir, everyHours: 1 / 3600, keep: 1 });
  try {
    const deadline = Date.now() + 20_000;
    while (!readdirSync(dir).some((name) => name.endsWith("Z.db")) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const taken = readdirSync(dir).filter((name) => name.endsWith("Z.db"));
    assert.equal(taken.length, 1, readdirSync(dir).join(", "));
    assert.equal(verifyBackup(path.join(dir, taken[0]!)).leads, 3);
  } finally {
    stop();
  }
  await db().$disconnect();
});
