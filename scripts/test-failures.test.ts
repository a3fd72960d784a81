import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import type { JSONReport } from "@playwright/test/reporter";
import { formatFailures, nodeTestFailures, playwrightFailures } from "./test-failures";

// The failures are read from the reports the real runners write: a probe file with tests
// that pass, fail and never end is run by node:test and by Playwright (no browser: its tests
// take no page), and what the summary names is checked against what failed.

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(os.tmpdir(), "test-failures-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("node:test: each failed or cancelled test is named with its place and error; a suite failed by its test is not", () => {
  const probe = path.join(dir, "probe.test.mjs");
  writeFileSync(
    probe,
    [
      'import assert from "node:assert/strict";',
      'import { describe, test } from "node:test";',
      'describe("a suite", () => {',
      '  test("fails an assertion", () => assert.equal(1, 2, "one is not two"));',
      '  test("passes", () => {});',
      "});",
      'test("throws # with a hash", () => { throw new Error("first line\\nsecond line"); });',
      'test("never ends", () => new Promise(() => {}));',
      "",
    ].join("\n"),
  );
  // A node:test child of a test file only runs its files when it is not told it is one.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", probe], { encoding: "utf8", env });
  assert.equal(run.status, 1, run.stderr);

  const failures = nodeTestFailures("stage", run.stdout);
  const where = path.relative(ROOT, probe);
  assert.deepEqual(
    failures.map((f) => [f.title, f.where]),
    [
      ["fails an assertion", `${where}:4:3`],
      ["throws # with a hash", `${where}:7:1`],
      ["never ends", `${where}:8:1`],
    ],
  );
  assert.match(failures[0]!.error, /^one is not two\n1 !== 2$/);
  assert.equal(failures[1]!.error, "first line\nsecond line");
  assert.match(failures[2]!.error, /Promise resolution is still pending/);
  assert.deepEqual(nodeTestFailures("stage", run.stdout.replace(/not ok/g, "ok")), [], "a passing run names nothing");
});

test("Playwright: each unexpected outcome is named with its file, line, project, describe titles and error; the run's own errors too", () => {
  const json = path.join(dir, "report.json");
  writeFileSync(path.join(dir, "playwright.config.mjs"), "export default { testDir: '.', testMatch: /probe\\.spec\\.mjs$/ };\n");
  writeFileSync(
    path.join(dir, "probe.spec.mjs"),
    [
      `import { expect, test } from ${JSON.stringify(path.join(ROOT, "node_modules/@playwright/test/index.mjs"))};`,
      'test.describe("a journey", () => {',
      '  test("expects two", () => expect(1, "the count").toBe(2));',
      '  test("passes", () => {});',
      "});",
      'test("times out", async () => { test.setTimeout(200); await new Promise(() => {}); });',
      'test.fail("fails as declared", () => expect(1).toBe(2));',
      "",
    ].join("\n"),
  );
  const run = spawnSync(
    path.join(ROOT, "node_modules/.bin/playwright"),
    ["test", `--config=${path.join(dir, "playwright.config.mjs")}`, "--reporter=json"],
    {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: json, CI: "" },
    },
  );
  assert.equal(run.status, 1, run.stderr);
  const report = JSON.parse(readFileSync(json, "utf8")) as JSONReport;

  const failures = playwrightFailures("browser stage", report);
  assert.deepEqual(
    failures.map((f) => [f.title, f.where]),
    [
      ["times out", `${path.relative(ROOT, dir)}/probe.spec.mjs:6`],
      ["a journey › expects two", `${path.relative(ROOT, dir)}/probe.spec.mjs:3`],
    ],
  );
  assert.match(failures[0]!.error, /Test timeout of 200ms exceeded/);
  assert.match(failures[1]!.error, /the count/);
  assert.equal(failures[1]!.error.includes("\u001b"), false, "no terminal colours");

  const broken = playwrightFailures("browser stage", {
    config: { rootDir: dir },
    suites: [],
    errors: [
      { message: "Error: webServer did not start", location: { file: path.join(ROOT, "playwright.config.ts"), line: 3, column: 1 } },
    ],
  });
  assert.deepEqual(broken, [
    { stage: "browser stage", where: "playwright.config.ts:3", title: "outside any test", error: "Error: webServer did not start" },
  ]);
});

test("the summary names each failure under its stage; no failures, no section", () => {
  const text = formatFailures([{ stage: "Unit tests", where: "lib/a.test.ts:4:3", title: "adds", error: "1 !== 2\nsecond" }]);
  assert.equal(text, "\n=== Failed tests (1)\n  ✘ Unit tests: lib/a.test.ts:4:3\n    adds\n      1 !== 2\n      second");
  assert.equal(formatFailures([]), "");
});
