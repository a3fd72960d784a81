import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";

// Shared by the tests that run an operator CLI as an operator would (repeats-cli.test.ts,
// spam-checks-cli.test.ts), on the test file's own database (its environment is passed on).

const ROOT = path.resolve(import.meta.dirname, "..");

export function cli(script: "keys" | "connections", ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, `scripts/${script}.ts`), ...args], {
    env: process.env,
    encoding: "utf8",
    cwd: ROOT,
  });
}

/** The --json output of a run that succeeded. */
export const json = (run: ReturnType<typeof cli>) => {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};
