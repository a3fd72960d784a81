import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import { db } from "../db/client";
import { env } from "../env";
import { migrate } from "../setup/migrate";

/**
 * Points this test process at its own migrated SQLite file (and DATA_DIR) in a temp
 * folder, removed after the file's tests. Call it first: env() and db() read the
 * environment once per process.
 */
export function useTempDatabase(): void {
  const dir = mkdtempSync(path.join(tmpdir(), "lead-intake-ui-test-"));
  process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
  process.env.DATA_DIR = path.join(dir, "data");
  if (env().DATABASE_URL !== process.env.DATABASE_URL) throw new Error("useTempDatabase() must run before env() or db()");
  migrate();
  after(async () => {
    await db().$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });
}
