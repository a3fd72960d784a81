import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// The slowest test files of an `npm test` run, node:test and Playwright alike, per stage:
// printed after the stage timings and written to test-results/timings.json, so the suite's
// cost is measured before anyone speeds it up (docs/development.md "How long the suite takes").

export type FileTiming = { stage: string; file: string; seconds: number };

const ROOT = path.resolve(import.meta.dirname, "..");

/** node:test: the JSON that test/support/file-timings-reporter.mjs wrote. */
export function nodeFileTimings(stage: string, jsonFile: string): FileTiming[] {
  const text = readFileSync(jsonFile, "utf8").trim();
  if (!text) return [];
  const seconds = JSON.parse(text) as Record<string, number>;
  return Object.entries(seconds).map(([file, s]) => ({ stage, file: path.relative(ROOT, file), seconds: s }));
}

export type PlaywrightSuite = {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { file: string; tests: { projectName: string; results: { duration: number }[] }[] }[];
};

/** Playwright: each file's test time (every result, retries included), per project. */
export function playwrightFileTimings(stage: string, suites: PlaywrightSuite[]): FileTiming[] {
  const seconds = new Map<string, number>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const key = `e2e/${spec.file} [${test.projectName}]`;
        const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
        seconds.set(key, (seconds.get(key) ?? 0) + ms / 1000);
      }
    }
    (suite.suites ?? []).forEach(walk);
  };
  suites.forEach(walk);
  return [...seconds].map(([file, s]) => ({ stage, file, seconds: s }));
}

/** Prints the `count` slowest files and writes every file's time to `jsonFile`. */
export function reportSlowestFiles(timings: FileTiming[], jsonFile: string, count = 20): void {
  const sorted = [...timings].sort((a, b) => b.seconds - a.seconds);
  writeFileSync(jsonFile, `${JSON.stringify(sorted, null, 2)}\n`);
  if (!sorted.length) return;
  const rows = sorted.slice(0, count).map((t) => `  ${t.seconds.toFixed(1).padStart(7)} s  ${t.stage}: ${t.file}`);
  console.log(`\n=== The ${Math.min(count, sorted.length)} slowest test files (test time; all in ${path.relative(ROOT, jsonFile)})`);
  console.log(rows.join("\n"));
}
