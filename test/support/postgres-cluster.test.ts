import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, test } from "node:test";
import { PostgresUnavailableError, assertPostgresBinaries, postgresOptedOut } from "./postgres-cluster";

// Without PostgreSQL's server binaries the suite fails (never skips) in CI, and says
// exactly how to install them, in CI and locally.

const ROOT = path.resolve(import.meta.dirname, "../..");
const missing = { POSTGRES_BIN: "/nonexistent/postgresql/bin" };

function messageOf(environment: Record<string, string | undefined>): string {
  try {
    assertPostgresBinaries(environment);
  } catch (error) {
    assert.ok(error instanceof PostgresUnavailableError);
    return error.message;
  }
  return assert.fail("expected PostgresUnavailableError");
}

describe("missing PostgreSQL binaries", () => {
  test("the message gives the install command and where the binaries go, in CI and locally", () => {
    for (const environment of [{ ...missing, CI: "true" }, { ...missing }]) {
      const message = messageOf(environment);
      assert.match(message, /apt-get install -y postgresql/);
      assert.match(message, /\/usr\/lib\/postgresql\/<version>\/bin/);
      assert.match(message, /not found in \/nonexistent\/postgresql\/bin/);
    }
    assert.match(messageOf({ ...missing, CI: "true" }), /failure, not a skip/);
    assert.match(messageOf({ ...missing }), /LEAD_INTAKE_SKIP_POSTGRES=1/);
  });

  test("LEAD_INTAKE_SKIP_POSTGRES=1 is honoured locally and ignored in CI", () => {
    assert.equal(postgresOptedOut({ LEAD_INTAKE_SKIP_POSTGRES: "1" }), true);
    assert.equal(postgresOptedOut({ LEAD_INTAKE_SKIP_POSTGRES: "1", CI: "true" }), false);
    assert.equal(postgresOptedOut({}), false);
  });

  test("npm test in CI fails at once, with the install command, even when asked to skip", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/test.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...missing, CI: "true", LEAD_INTAKE_SKIP_POSTGRES: "1" },
      encoding: "utf8",
    });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /apt-get install -y postgresql/);
    assert.match(result.stdout, /Summary: 0 passed, 0 failed, 0 skipped/);
    assert.doesNotMatch(result.stdout, /=== Type check/, "nothing else ran");
  });
});
