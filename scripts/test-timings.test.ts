import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { nodeFileTimings, playwrightFileTimings, reportSlowestFiles } from "./test-timings";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(os.tmpdir(), "test-timings-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("Playwright: a file's time is the sum of its tests' results, per project, nested suites included", () => {
  const timings = playwrightFileTimings("SQLite", [
    {
      specs: [{ file: "ui/a.spec.ts", tests: [{ projectName: "ui", results: [{ duration: 1_500 }] }] }],
      suites: [
        {
          specs: [
            { file: "ui/a.spec.ts", tests: [{ projectName: "ui", results: [{ duration: 500 }] }] },
            { file: "api/b.spec.ts", tests: [{ projectName: "api", results: [{ duration: 250 }] }] },
          ],
        },
      ],
    },
  ]);
  assert.deepEqual(
    timings.sort((x, y) => x.file.localeCompare(y.file)),
    [
      { stage: "SQLite", file: "e2e/api/b.spec.ts [api]", seconds: 0.25 },
      { stage: "SQLite", file: "e2e/ui/a.spec.ts [ui]", seconds: 2 },
    ],
  );
});

test("node:test: the reporter's absolute paths become the repository's relative ones; an empty report is no files", () => {
  const report = path.join(dir, "node.files.json");
  writeFileSync(report, JSON.stringify({ [path.join(ROOT, "lib/x.test.ts")]: 3.5 }));
  assert.deepEqual(nodeFileTimings("SQLite", report), [{ stage: "SQLite", file: "lib/x.test.ts", seconds: 3.5 }]);
  writeFileSync(report, "");
  assert.deepEqual(nodeFileTimings("SQLite", report), []);
});

test("the report lists the slowest first and writes every file to the JSON", () => {
  const json = path.join(dir, "timings.json");
  const files = Array.from({ length: 25 }, (_, i) => ({ stage: "s", file: `f${i}`, seconds: i }));
  reportSlowestFiles(files, json);
  const written = JSON.parse(readFileSync(json, "utf8")) as { file: string }[];
  assert.equal(written.length, 25);
  assert.deepEqual(
    written.slice(0, 3).map((t) => t.file),
    ["f24", "f23", "f22"],
  );
});

test("the node:test reporter sums each file's top-level tests", () => {
  const fixture = path.join(dir, "fixture.test.mjs");
  writeFileSync(
    fixture,
    'import { test } from "node:test";\nconst wait = (ms) => new Promise((r) => setTimeout(r, ms));\n' +
      'test("one", () => wait(200));\ntest("two", async (t) => { await t.test("nested", () => wait(100)); });\n',
  );
  const reporter = path.join(ROOT, "test/support/file-timings-reporter.mjs");
  const out = execFileSync(process.execPath, ["--test", `--test-reporter=${reporter}`, fixture], {
    encoding: "utf8",
    // Not as a child of this run: node:test would take the child's results for its own.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined },
  });
  const seconds = (JSON.parse(out) as Record<string, number>)[fixture]!;
  assert.ok(seconds >= 0.3 && seconds < 5, `${seconds} s for 0.3 s of tests`);
});
