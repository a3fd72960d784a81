import assert from "node:assert/strict";
import { test } from "node:test";
import { sharedSecretWarnings } from "./shared-secrets";

test("PostgreSQL without shared secrets in the environment gets a warning naming what is missing", () => {
  const warnings = sharedSecretWarnings({ NEXTAUTH_SECRET: "x" }, "postgres");
  assert.match(warnings[0]!, /^Warning: SECRET_ENCRYPTION_KEY is not set/);
  assert.match(sharedSecretWarnings({}, "postgres")[0]!, /SECRET_ENCRYPTION_KEY and NEXTAUTH_SECRET are not set/);
});

test("no warning with both set, or on SQLite (one process owns the file)", () => {
  assert.deepEqual(sharedSecretWarnings({ SECRET_ENCRYPTION_KEY: "k", NEXTAUTH_SECRET: "s" }, "postgres"), []);
  assert.deepEqual(sharedSecretWarnings({}, "sqlite"), []);
});
