import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { format } from "node:util";
import type { Cli } from "./cli";

// Shared by the tests that run an operator CLI as an operator would (repeats-cli.test.ts,
// spam-checks-cli.test.ts, leads.test.ts), on the test file's own database. cli() runs the command line in
// the test's process (the CLI's own parsing, handler, output and exit code; about 1.5 s of CPU
// less than a process per command); spawnCli() runs it as a process of its own, as `npm run`
// does (its environment is passed on), for the test that proves the command line itself.

const ROOT = path.resolve(import.meta.dirname, "..");

export type CliRun = { status: number | null; stdout: string; stderr: string };
type Script = "keys" | "connections" | "leads";

const clis: Record<Script, () => Promise<Cli>> = {
  keys: async () => (await import("./keys")).keysCli,
  connections: async () => (await import("./connections")).connectionsCli,
  leads: async () => (await import("./leads")).leadsCli,
};

/** Runs `script`'s command line in this process, its console output captured. */
export async function cli(script: Script, ...args: string[]): Promise<CliRun> {
  const run = await clis[script]();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = { log: console.log, error: console.error, warn: console.warn };
  console.log = (...values: unknown[]) => void stdout.push(`${format(...values)}\n`);
  console.error = console.warn = (...values: unknown[]) => void stderr.push(`${format(...values)}\n`);
  try {
    const status = await run(args);
    return { status, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    Object.assign(console, saved);
  }
}

/** Runs `script` as a process of its own (node --import tsx scripts/<script>.ts …). */
export function spawnCli(script: Script, ...args: string[]): CliRun {
  return spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, `scripts/${script}.ts`), ...args], {
    env: process.env,
    encoding: "utf8",
    cwd: ROOT,
  });
}

/** The --json output of a run that succeeded. */
export const json = (run: CliRun) => {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};
