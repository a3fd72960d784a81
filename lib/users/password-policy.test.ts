import assert from "node:assert/strict";
import { test } from "node:test";
import { COMMON_PASSWORDS } from "./common-passwords";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from "./password-policy";

const TOO_COMMON = "This password is too common or easy to guess; choose another.";

test("passwords need 15 characters and may have up to 256, counted as characters, not bytes", () => {
  assert.equal(PASSWORD_MIN_LENGTH, 15);
  assert.equal(passwordProblem("gentle-otter-1"), "Use at least 15 characters.");
  assert.equal(passwordProblem("gentle-otter-12"), null);
  // 64 characters must be accepted (NIST SP 800-63B-4), and more: bcrypt would have cut these at 72 bytes.
  assert.equal(passwordProblem("river stone ".repeat(6).slice(0, 64)), null);
  assert.equal(passwordProblem("river stone ".repeat(30).slice(0, PASSWORD_MAX_LENGTH)), null);
  assert.equal(passwordProblem("river stone ".repeat(30).slice(0, PASSWORD_MAX_LENGTH + 1)), "Use at most 256 characters.");
  // Three-byte characters count once each: 15 of them pass, though 45 bytes.
  assert.equal(passwordProblem("€£¥₩₹€£¥₩₹€£¥₩₹"), null);
  assert.equal(passwordProblem("🦊🐻🐼🐨🦊🐻🐼🐨🦊🐻🐼🐨🦊🐻"), "Use at least 15 characters.");
});

test("common, repetitive and account-specific passwords are refused whatever their case", () => {
  for (const entry of COMMON_PASSWORDS) assert.equal(passwordProblem(entry), TOO_COMMON, entry);
  assert.equal(passwordProblem("Demo-Admin-Password"), TOO_COMMON);
  assert.equal(passwordProblem("CorrectHorseBatteryStaple"), TOO_COMMON);
  assert.equal(passwordProblem("abababababababab"), TOO_COMMON);
  assert.equal(passwordProblem("zzzzzzzzzzzzzzzzzzzzzzzzz"), TOO_COMMON);
  assert.equal(passwordProblem("averylongname@example.com", { email: "AVeryLongName@example.com" }), TOO_COMMON);
  assert.equal(passwordProblem("averylongname12", { email: "averylongname12@example.com" }), TOO_COMMON);
  assert.equal(passwordProblem("averylongname12", { email: "someone-else@example.com" }), null);
});

test("every listed entry is long enough to matter", () => {
  for (const entry of COMMON_PASSWORDS) assert.ok([...entry].length >= PASSWORD_MIN_LENGTH, entry);
});
