// `npm test`: type check, unit and integration tests (node:test, real SQLite files),
// then the HTTP and browser suites (Playwright against `next start`). Extra arguments
// go to Playwright, e.g. `npm test -- --project api`. Ends with one summary line.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { buildIsStale } from "./start";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS = path.join(ROOT, "test-results");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Runs one stage; `count` adds its results to the totals, whether it passed or not. */
function run(title: string, command: string, args: string[], count?: () => void): void {
  console.log(`\n=== ${title}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env });
  try {
    count?.();
  } catch {
    // A stage that died before writing its report has nothing to count.
  }
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal}).`);
    summarise();
    process.exit(result.status || 1);
  }
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.includes("generated"))
    .map((file) => path.join(dir, file))
    .sort();
}

function countNodeTests(tapFile: string): void {
  const tap = readFileSync(tapFile, "utf8");
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  totals.passed += count("pass");
  totals.failed += count("fail");
  totals.skipped += count("skipped") + count("todo");
}

function countPlaywrightTests(jsonFile: string): void {
  const { stats } = JSON.parse(readFileSync(jsonFile, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

function summarise(): void {
  console.log(`\nSummary: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
}

mkdirSync(RESULTS, { recursive: true });
// scripts/ holds tests of the tooling (e.g. the bench preload) next to it.
const unitFiles = [...testFiles("lib"), ...testFiles("scripts")];
const nodeTap = path.join(RESULTS, "node-test.tap");
const playwrightJson = path.join(RESULTS, "playwright.json");

run("Type check", bin("tsc"), ["--noEmit"]);
if (unitFiles.length) {
  run(
    "Unit and integration tests (node:test)",
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      "--test-concurrency=2",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${nodeTap}`,
      ...unitFiles,
    ],
    () => countNodeTests(nodeTap),
  );
}
if (buildIsStale()) run("Production build", bin("next"), ["build"]);
env.PLAYWRIGHT_JSON_OUTPUT_NAME = playwrightJson;
run("HTTP and browser tests (Playwright)", bin("playwright"), ["test", "--reporter=list,json", ...process.argv.slice(2)], () =>
  countPlaywrightTests(playwrightJson),
);
summarise();
