import { chmodSync, mkdirSync, mkdtempSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// Where `npm test` keeps every temporary file of its run: the test databases (a SQLite copy
// per test file, the private PostgreSQL cluster), the app servers' data folders, the
// browsers' profiles. One folder per run, named in TMPDIR for every process the run starts
// (os.tmpdir() reads it), deleted when the run ends: a temporary folder a test forgets to
// delete goes with it. On a RAM disk (/dev/shm) where the machine has one with room: the run
// creates and deletes thousands of files, which on a disk cost the kernel's writeback and
// discards CPU the 2-core machine's tests need (docs/development.md "How long the suite takes").

/** The free space a RAM disk needs before the run uses it (the run's peak is a few hundred MB). */
export const RAM_DISK_MIN_FREE_BYTES = 2 * 1024 ** 3;

const RAM_DISK = "/dev/shm";
/** statfs's f_type of a tmpfs (linux/magic.h TMPFS_MAGIC). */
const TMPFS_MAGIC = 0x01021994;

type FsStats = { type: number; bavail: number; bsize: number };

/**
 * The folder the run's own folder goes in: TMPDIR when the user set one (their choice
 * wins), else /dev/shm when it is a tmpfs with RAM_DISK_MIN_FREE_BYTES free, else the
 * system's temporary folder.
 */
export function scratchRoot(
  environment: Record<string, string | undefined> = process.env,
  statfs: (dir: string) => FsStats = statfsSync,
): string {
  if (environment.TMPDIR?.trim()) return environment.TMPDIR;
  try {
    const stats = statfs(RAM_DISK);
    if (stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= RAM_DISK_MIN_FREE_BYTES) return RAM_DISK;
  } catch {
    // No /dev/shm (not Linux, or a container without it).
  }
  return os.tmpdir();
}

/**
 * Makes the run's folder in `root` and its tmp/ folder, which TMPDIR should name. Both
 * are readable by other users (mode 755): the PostgreSQL cluster runs as the postgres
 * user when the run is root's, and reaches its own folder in tmp/ through them.
 */
export function makeScratch(root: string): { scratch: string; tmp: string } {
  const scratch = mkdtempSync(path.join(root, "lead-intake-test-run-"));
  const tmp = path.join(scratch, "tmp");
  mkdirSync(tmp);
  chmodSync(scratch, 0o755);
  chmodSync(tmp, 0o755);
  return { scratch, tmp };
}
