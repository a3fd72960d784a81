import assert from "node:assert/strict";
import { test } from "node:test";
import { log, redact } from "./logger";

const SECRET = "team_AbCdEfGh1234567890abcdefghijKLMNOPQRST12";

function captured(run: () => void): string {
  const writes: string[] = [];
  const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const capture = (chunk: string | Uint8Array) => (writes.push(String(chunk)), true);
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    run();
  } finally {
    process.stdout.write = original.out;
    process.stderr.write = original.err;
  }
  return writes.join("");
}

test("secret-looking text is masked wherever it appears", () => {
  assert.deepEqual(redact({ key_id: SECRET, note: `pasted ${SECRET} here`, list: [SECRET] }), {
    key_id: "team_[REDACTED]",
    note: "pasted team_[REDACTED] here",
    list: ["team_[REDACTED]"],
  });
});

test("sensitive field names are blanked whatever they hold", () => {
  const headers = new Headers({
    "x-api-key": "0123456789abcdef0123",
    "x-api-secret": "not-even-a-team-secret",
    cookie: "next-auth.session-token=abc",
    authorization: "Bearer xyz",
  });
  assert.deepEqual(redact({ headers, password: "hunter2", newPassword: "x", sessionToken: "y" }), {
    headers: {
      "x-api-key": "0123456789abcdef0123",
      "x-api-secret": "[REDACTED]",
      cookie: "[REDACTED]",
      authorization: "[REDACTED]",
    },
    password: "[REDACTED]",
    newPassword: "[REDACTED]",
    sessionToken: "[REDACTED]",
  });
});

test("errors are reduced to their class name (driver messages can echo values)", () => {
  assert.deepEqual(redact({ error: new Error(`insert failed: ${SECRET}`) }), { error: { name: "Error" } });
});

test("a log line is one JSON object, with no secret anywhere in it", () => {
  const line = captured(() =>
    log("warn", "auth.failed", { request_id: "req-12345678", [`weird ${SECRET}`]: SECRET, nested: { deep: { deeper: SECRET } } }),
  );
  assert.equal(line.endsWith("\n"), true);
  assert.equal(line.trim().split("\n").length, 1);
  const entry = JSON.parse(line);
  assert.equal(entry.level, "warn");
  assert.equal(entry.event, "auth.failed");
  assert.equal(entry.request_id, "req-12345678");
  assert.doesNotMatch(line, /team_[0-9A-Za-z]{8,}/);
});
