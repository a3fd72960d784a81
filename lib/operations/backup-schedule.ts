import { mkdirSync } from "node:fs";
import path from "node:path";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { backupSqlite, pruneBackups, scheduledBackupName } from "./sqlite-backup";

/**
 * Every `everyHours`, an online backup of the SQLite database into `dir`, keeping the
 * newest `keep`. Run by `npm start` beside the server; returns the function that stops it.
 */
export function startBackupSchedule(options: { database: string; dir: string; everyHours: number; keep: number }): () => void {
  mkdirSync(options.dir, { recursive: true });
  let running = false;
  const takeOne = async () => {
    if (running) return;
    running = true;
    const file = path.join(options.dir, scheduledBackupName());
    try {
      const { leads } = await backupSqlite(options.database, file);
      const removed = pruneBackups(options.dir, options.keep);
      log("info", "backup.taken", { file, leads, removed: removed.length });
    } catch (error) {
      log("error", "backup.failed", { file, ...summariseError(error) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(takeOne, options.everyHours * 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
