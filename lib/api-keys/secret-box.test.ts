import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";

// env() is read once per process: point DATA_DIR at a temp folder and use the key
// file (no SECRET_ENCRYPTION_KEY) before anything reads the environment.
const dataDir = mkdtempSync(path.join(tmpdir(), "secret-box-test-"));
process.env.DATA_DIR = dataDir;
delete process.env.SECRET_ENCRYPTION_KEY;
after(() => rmSync(dataDir, { recursive: true, force: true }));

const { ENCRYPTION_KEY_FILE, encryptionKey, open, seal } = await import("./secret-box");

const SECRET = "team_0123456789abcdefghijABCDEFGHIJ0123456789";
const KEY_ID = "0123456789abcdef0123";

/** Replaces one part of a sealed value (v1.iv.tag.body) with `change(part)`. */
function tamper(sealed: string, index: number, change: (bytes: Buffer) => Buffer): string {
  const parts = sealed.split(".");
  parts[index] = change(Buffer.from(parts[index]!, "base64")).toString("base64");
  return parts.join(".");
}
const flipFirstBit = (bytes: Buffer) => {
  const copy = Buffer.from(bytes);
  copy[0] = copy[0]! ^ 1;
  return copy;
};

describe("secret box (AES-256-GCM)", () => {
  test("seal then open returns the plaintext", () => {
    assert.equal(open(seal(SECRET, KEY_ID), KEY_ID), SECRET);
    assert.equal(open(seal("é ✓ 🔑", KEY_ID), KEY_ID), "é ✓ 🔑");
  });

  test("the sealed text is versioned and does not contain the plaintext", () => {
    const sealed = seal(SECRET, KEY_ID);
    assert.match(sealed, /^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    assert.ok(!sealed.includes(SECRET.slice(5)));
    assert.ok(!Buffer.from(sealed).toString("base64").includes(Buffer.from(SECRET).toString("base64")));
  });

  test("two seals of the same text differ (random IV) and both open", () => {
    const a = seal(SECRET, KEY_ID);
    const b = seal(SECRET, KEY_ID);
    assert.notEqual(a, b);
    assert.equal(open(a, KEY_ID), SECRET);
    assert.equal(open(b, KEY_ID), SECRET);
  });

  test("opening with another context (another key id) fails", () => {
    assert.throws(() => open(seal(SECRET, KEY_ID), "ffffffffffffffffffff"));
    assert.throws(() => open(seal(SECRET, KEY_ID), ""));
  });

  const parts: [string, number][] = [
    ["IV", 1],
    ["auth tag", 2],
    ["ciphertext", 3],
  ];
  for (const [label, index] of parts) {
    test(`a tampered ${label} fails to open`, () => {
      const sealed = seal(SECRET, KEY_ID);
      assert.throws(() => open(tamper(sealed, index, flipFirstBit), KEY_ID));
    });
  }

  test("a truncated ciphertext fails to open", () => {
    const sealed = seal(SECRET, KEY_ID);
    assert.throws(() =>
      open(
        tamper(sealed, 3, (bytes) => bytes.subarray(0, bytes.length - 1)),
        KEY_ID,
      ),
    );
  });

  for (const malformed of ["", "v1", "v1.a.b", "v2.aaaa.bbbb.cccc", SECRET]) {
    test(`a malformed value ${JSON.stringify(malformed)} is refused`, () => {
      assert.throws(() => open(malformed, KEY_ID), /Unknown secret box format/);
    });
  }

  test("without SECRET_ENCRYPTION_KEY the key lives in DATA_DIR/secret.key, mode 0600, created once", () => {
    seal(SECRET, KEY_ID);
    const file = path.join(dataDir, ENCRYPTION_KEY_FILE);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const fromFile = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    assert.equal(fromFile.length, 32);
    assert.deepEqual(encryptionKey(), fromFile);
  });
});

/** Runs encryptionKey() in a fresh process (env() is cached per process). */
function keyInChild(envKey: string, childDataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `const m = await import(${JSON.stringify(path.resolve(import.meta.dirname, "secret-box.ts"))});
process.stdout.write(m.encryptionKey().toString("hex"));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, SECRET_ENCRYPTION_KEY: envKey, DATA_DIR: childDataDir },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("SECRET_ENCRYPTION_KEY", () => {
  const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7));

  // (The base64 form is the key file's format, covered above.)
  test("a hex key of 32 bytes is used and no key file is written; another length is refused", async () => {
    const [hexDir, shortDir] = [path.join(dataDir, "child-hex"), path.join(dataDir, "child-short")];
    const [hex, short] = await Promise.all([
      keyInChild(key.toString("hex"), hexDir),
      keyInChild(key.subarray(0, 16).toString("base64"), shortDir),
    ]);
    assert.equal(hex.stdout, key.toString("hex"), hex.stderr);
    assert.throws(() => statSync(path.join(hexDir, ENCRYPTION_KEY_FILE)), { code: "ENOENT" });
    assert.notEqual(short.code, 0);
    assert.match(short.stderr, /SECRET_ENCRYPTION_KEY must be 32 bytes/);
  });
});
