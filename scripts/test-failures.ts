import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { JSONReportSuite, TestError } from "@playwright/test/reporter";

// The failed tests of an `npm test` run, named again at its end just before the summary line:
// a stage's own output can be thousands of lines above it, and a CI that keeps only the
// end of the log (the last part of the output) must still say which test failed and why.

export type TestFailure = { stage: string; where: string; title: string; error: string };

const ROOT = path.resolve(import.meta.dirname, "..");
/** The lines of an error kept in the summary: enough to tell one failure from another. */
const ERROR_LINES = 6;

function firstLines(text: string): string {
  const lines = stripVTControlCharacters(text)
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");
  return lines.slice(0, ERROR_LINES).join("\n");
}

/** A location such as '/abs/dir/lib/x.test.js:4:3' (or a file URL) relative to the repository. */
function relativeLocation(location: string): string {
  const plain = location.replace(/^file:\/\//, "");
  return path.isAbsolute(plain) ? path.relative(ROOT, plain) : plain;
}

/** YAML's quoted scalar or block scalar (`|-` and its indented lines) for `key` in a TAP diagnostic block. */
function yamlValue(block: string[], key: string): string {
  const index = block.findIndex((line) => line.trimStart().startsWith(`${key}:`));
  const line = block[index];
  if (line === undefined) return "";
  const value = line.slice(line.indexOf(":") + 1).trim();
  if (value !== "|-" && value !== "|") return value.replace(/^'(.*)'$/s, "$1").replace(/''/g, "'");
  const indent = line.length - line.trimStart().length;
  const body: string[] = [];
  for (const next of block.slice(index + 1)) {
    if (next.trim() !== "" && next.length - next.trimStart().length <= indent) break;
    body.push(next.trim());
  }
  return body.join("\n");
}

/**
 * node:test's TAP: every `not ok` test with its location and error. A suite that failed only
 * because a test in it did (failureType 'subtestsFailed') is left out: its test is named.
 */
export function nodeTestFailures(stage: string, tap: string): TestFailure[] {
  const lines = tap.split("\n");
  const failures: TestFailure[] = [];
  lines.forEach((line, index) => {
    const [, spaces, title] = /^(\s*)not ok \d+ - (.*)$/.exec(line) ?? [];
    if (spaces === undefined || title === undefined) return;
    const indent = spaces.length;
    const block: string[] = [];
    if (lines[index + 1]?.trim() === "---") {
      for (const next of lines.slice(index + 2)) {
        if (next.trim() === "..." && next.length - next.trimStart().length === indent + 2) break;
        block.push(next);
      }
    }
    if (yamlValue(block, "failureType") === "subtestsFailed") return;
    failures.push({
      stage,
      where: relativeLocation(yamlValue(block, "location")),
      title: title.replace(/\\#/g, "#"),
      error: firstLines(yamlValue(block, "error")),
    });
  });
  return failures;
}

/**
 * Playwright's JSON report: every test whose outcome was not the expected one, with its first
 * error, and the run's errors outside any test (a server that did not start, a file that did
 * not load).
 */
export function playwrightFailures(
  stage: string,
  report: { config: { rootDir: string }; suites: JSONReportSuite[]; errors: TestError[] },
): TestFailure[] {
  const failures: TestFailure[] = (report.errors ?? []).map((error) => ({
    stage,
    where: error.location ? relativeLocation(`${error.location.file}:${error.location.line}`) : "the run",
    title: "outside any test",
    error: firstLines(error.message ?? ""),
  }));
  const walk = (suite: JSONReportSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== "unexpected") continue;
        const failed = test.results.find((result) => result.error?.message) ?? test.results.at(-1);
        failures.push({
          stage,
          where: `${relativeLocation(path.join(report.config.rootDir, spec.file))}:${spec.line}${test.projectName ? ` [${test.projectName}]` : ""}`,
          title: [...titles, spec.title].join(" › "),
          error: firstLines(failed?.error?.message ?? failed?.status ?? ""),
        });
      }
    }
    // The top suites are files (their titles are the file names, already in `where`).
    for (const child of suite.suites ?? []) walk(child, child.title ? [...titles, child.title] : titles);
  };
  for (const file of report.suites ?? []) walk(file, []);
  return failures;
}

/** The failures, each as its place, its title and its error's first lines. */
export function formatFailures(failures: TestFailure[]): string {
  if (!failures.length) return "";
  const blocks = failures.map((f) => {
    const error = f.error
      .split("\n")
      .map((line) => `      ${line}`)
      .join("\n");
    return `  ✘ ${f.stage}: ${f.where}\n    ${f.title}${error ? `\n${error}` : ""}`;
  });
  return `\n=== Failed tests (${failures.length})\n${blocks.join("\n")}`;
}
