import assert from "node:assert/strict";
import { test } from "node:test";
import { passwordProblem } from "./password-policy";

test("passwords need 10 characters and at most bcrypt's 72 bytes", () => {
  assert.equal(passwordProblem("123456789"), "Use at least 10 characters.");
  assert.equal(passwordProblem("1234567890"), null);
  assert.equal(passwordProblem("a".repeat(72)), null);
  assert.equal(passwordProblem("a".repeat(73)), "Use at most 72 bytes.");
  // 24 three-byte characters are 72 bytes; one more is over, though only 25 characters.
  assert.equal(passwordProblem("€".repeat(24)), null);
  assert.equal(passwordProblem("€".repeat(25)), "Use at most 72 bytes.");
});
