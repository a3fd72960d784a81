import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { persistentSecret } from "./runtime-secrets";

const root = mkdtempSync(path.join(tmpdir(), "runtime-secrets-test-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("creates the file (and its folder) once, mode 0600, with 32 random bytes, then returns the same value", () => {
  const dir = path.join(root, "nested", "data");
  const first = persistentSecret(dir, "secret.key");
  assert.equal(Buffer.from(first, "base64").length, 32);
  assert.equal(statSync(path.join(dir, "secret.key")).mode & 0o777, 0o600);
  assert.equal(persistentSecret(dir, "secret.key"), first);
  assert.notEqual(persistentSecret(dir, "other.key"), first);
});

test("an existing file is read, never overwritten", () => {
  const file = path.join(root, "existing.key");
  writeFileSync(file, "  kept-value \n");
  assert.equal(persistentSecret(root, "existing.key"), "kept-value");
  assert.equal(readFileSync(file, "utf8"), "  kept-value \n");
});
