import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import { db } from "../db/client";
import { env } from "../env";
import { migrate } from "../setup/migrate";

export type TestDatabase = {
  /** The temp folder holding the database file and DATA_DIR. */
  dir: string;
  /** Absolute path of the SQLite file. */
  file: string;
  /** Every byte the database keeps on disk: the main file, its WAL and shared memory. */
  bytesOnDisk: () => Buffer;
};

/**
 * Gives this test process its own SQLite file with the real migrations applied, and
 * DATA_DIR in a temp folder. Call it at the top of a test file, before anything calls
 * db() or env(): both read the environment once per process. Cleans up after the file.
 */
export function useTestDatabase(): TestDatabase {
  const dir = mkdtempSync(path.join(tmpdir(), "lead-intake-test-"));
  const file = path.join(dir, "test.db");
  process.env.DATABASE_URL = `file:${file}`;
  process.env.DATA_DIR = path.join(dir, "data");
  delete process.env.SECRET_ENCRYPTION_KEY;
  delete process.env.WORKSPACE_CURRENCY;

  if (env().DATABASE_URL !== process.env.DATABASE_URL) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error("useTestDatabase() must run before anything reads the environment (env() or db())");
  }
  migrate();

  after(async () => {
    await db().$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    dir,
    file,
    bytesOnDisk: () =>
      Buffer.concat(
        readdirSync(dir)
          .filter((name) => name.startsWith(path.basename(file)))
          .map((name) => readFileSync(path.join(dir, name))),
      ),
  };
}
