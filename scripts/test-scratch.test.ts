import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { makeScratch, RAM_DISK_MIN_FREE_BYTES, scratchRoot } from "./test-scratch";

const TMPFS = 0x01021994;
const EXT4 = 0xef53;
const statfsOf = (type: number, freeBytes: number) => (dir: string) => {
  assert.equal(dir, "/dev/shm");
  return { type, bsize: 4096, bavail: Math.floor(freeBytes / 4096) };
};

test("a TMPDIR the user set wins over the RAM disk", () => {
  assert.equal(scratchRoot({ TMPDIR: "/var/tmp/mine" }, statfsOf(TMPFS, 8 * 1024 ** 3)), "/var/tmp/mine");
});

test("without TMPDIR, /dev/shm when it is a tmpfs with room for the run", () => {
  assert.equal(scratchRoot({}, statfsOf(TMPFS, RAM_DISK_MIN_FREE_BYTES)), "/dev/shm");
  assert.equal(scratchRoot({ TMPDIR: " " }, statfsOf(TMPFS, 8 * 1024 ** 3)), "/dev/shm");
});

test("the system's temporary folder when /dev/shm is small, not a tmpfs, or missing", () => {
  assert.equal(scratchRoot({}, statfsOf(TMPFS, RAM_DISK_MIN_FREE_BYTES - 4096)), os.tmpdir());
  assert.equal(scratchRoot({}, statfsOf(EXT4, 8 * 1024 ** 3)), os.tmpdir());
  const missing = () => {
    throw Object.assign(new Error("ENOENT: no such file or directory, statfs '/dev/shm'"), { code: "ENOENT" });
  };
  assert.equal(scratchRoot({}, missing), os.tmpdir());
});

test("the run's folder and its tmp/ are made inside the root, reachable by other users (the postgres user)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "scratch-root-"));
  try {
    const { scratch, tmp } = makeScratch(root);
    assert.equal(path.dirname(scratch), root);
    assert.match(path.basename(scratch), /^lead-intake-test-run-/);
    assert.equal(tmp, path.join(scratch, "tmp"));
    assert.equal(statSync(scratch).mode & 0o777, 0o755);
    assert.equal(statSync(tmp).mode & 0o777, 0o755);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
