import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

// Backups of the embedded SQLite database. A backup is taken online with SQLite's backup
// API (better-sqlite3's db.backup): a consistent snapshot of one moment while the app
// keeps serving, written to a temporary file, checked, then renamed into place. A restore
// goes into a stopped deployment only, after the same check. PostgreSQL: pg_dump and
// pg_restore (docs/operations.md).

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** PRAGMA integrity_check says "ok" and the file has the app's migrations table. */
export function verifyBackup(file: string): { migrations: number; leads: number } {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  let database: Database.Database;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(`${file} is not a SQLite database`);
  }
  try {
    const integrity = database.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new BackupError(`${file} failed PRAGMA integrity_check: ${String(integrity)}`);
    const table = database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!table) throw new BackupError(`${file} is not a Lead Intake database (no _prisma_migrations table)`);
    const { migrations } = database
      .prepare(`SELECT COUNT(*) AS migrations FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`)
      .get() as { migrations: number };
    if (migrations === 0) throw new BackupError(`${file} has no applied migration`);
    const { leads } = database.prepare(`SELECT COUNT(*) AS leads FROM "Lead"`).get() as { leads: number };
    return { migrations, leads };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable Lead Intake database`);
  } finally {
    database.close();
  }
}

/** Takes a consistent online copy of `source` into `target` (never overwriting a file). */
export async function backupSqlite(source: string, target: string): Promise<{ migrations: number; leads: number }> {
  if (!existsSync(source)) throw new BackupError(`The database ${source} does not exist`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name`);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const database = new Database(source, { fileMustExist: true });
  try {
    // The app's writers wait at most their busy timeout; the backup steps through pages
    // and restarts by itself when a write changes what it already copied.
    database.pragma("busy_timeout = 10000");
    await database.backup(partial);
  } finally {
    database.close();
  }
  try {
    const summary = verifyBackup(partial);
    renameSync(partial, target);
    return summary;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** DATA_DIR/server.pid, written by `npm start` while the app serves. */
export function pidFile(dataDir: string): string {
  return path.join(dataDir, "server.pid");
}

export function writePidFile(dataDir: string, pid: number): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(pidFile(dataDir), `${pid}\n`);
}

export function removePidFile(dataDir: string, pid: number): void {
  try {
    if (readFileSync(pidFile(dataDir), "utf8").trim() === String(pid)) unlinkSync(pidFile(dataDir));
  } catch {
    // Already gone.
  }
}

function runningPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(dataDir), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * Restores a checked backup over the database of a stopped deployment. The current file
 * is kept beside it as <name>.before-restore; its WAL and shared memory are removed, so
 * nothing of the old state is replayed over the restored one.
 */
export function restoreSqlite(backup: string, target: string, dataDir: string): { migrations: number; leads: number } {
  const pid = runningPid(dataDir);
  if (pid !== null) throw new BackupError(`The app is running (pid ${pid}, ${pidFile(dataDir)}): stop it before restoring`);
  const summary = verifyBackup(backup);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const incoming = `${target}.restoring`;
  copyFileSync(backup, incoming);
  if (existsSync(target)) renameSync(target, `${target}.before-restore`);
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${target}${suffix}`, { force: true });
  renameSync(incoming, target);
  return summary;
}

/** Keeps the newest `keep` backups of a scheduled series in `dir`; returns the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const series = readdirSync(dir)
    .filter((name) => /^lead-intake-\d{8}T\d{6}Z\.db$/.test(name))
    .sort((a, b) => statSync(path.join(dir, b)).mtimeMs - statSync(path.join(dir, a)).mtimeMs || (a < b ? 1 : -1));
  const removed = series.slice(keep);
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}

/** The file name of a scheduled backup taken at `now`. */
export function scheduledBackupName(now = new Date()): string {
  return `lead-intake-${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z")}.db`;
}
