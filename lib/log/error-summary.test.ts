import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { safeReason, summariseError } from "./error-summary";

describe("summariseError: what an unexpected-error log line says", () => {
  test("names the class of a plain Error by its constructor and keeps a value-free reason", () => {
    // Issue 11: libphonenumber-js threw `Error("Unknown calling code: 999")` and the log said only "Error".
    assert.deepEqual(summariseError(new Error("Unknown calling code: 999")), { error: "Error", reason: "Unknown calling code: #" });
    assert.deepEqual(summariseError(new TypeError("Cannot read properties of undefined (reading 'x')")), {
      error: "TypeError",
      reason: "Cannot read properties of undefined (reading …)",
    });
  });

  test("keeps codes and adapter kinds", () => {
    const error = Object.assign(new Error("x"), { name: "PrismaClientKnownRequestError", code: "P2002" });
    assert.equal(summariseError(error).code, "P2002");
    const adapter = Object.assign(new Error("y"), { meta: { driverAdapterError: { cause: { kind: "postgres", code: "23505" } } } });
    assert.deepEqual(summariseError(adapter), { error: "Error", code: "23505", kind: "postgres", reason: "y" });
  });

  test("non-errors say what they are", () => {
    assert.deepEqual(summariseError("boom"), { error: "string" });
    assert.deepEqual(summariseError(undefined), { error: "undefined" });
  });
});

describe("safeReason: one line, no values", () => {
  const cases: [string, string | undefined][] = [
    ['invalid input syntax for type integer: "abc"', "invalid input syntax for type integer: …"],
    ["Key (email)=(ana@example.com) already exists.", "Key (email)=(<email>) already exists."],
    ["first line\nsecond line with ana@example.com", "first line"],
    ["fetch https://user:pw@example.com/x failed", "fetch <url> failed"],
    ["token team_AbCdEf1234567890abcdef1234 leaked", "token … leaked"],
    ["", undefined],
  ];
  for (const [message, expected] of cases) {
    test(JSON.stringify(message), () => assert.equal(safeReason(message), expected));
  }

  test("a long message is cut to one bounded line", () => {
    const reason = safeReason("word ".repeat(200));
    assert.ok(reason && reason.length <= 121);
  });
});
