// `npm test`: lint, format check, type check, migration drift check, the lint rules' own
// test, then every suite on both databases in two lanes side by side (docs/development.md
// "Tests"): unit and integration tests (node:test) and the HTTP and browser suites
// (Playwright against `next start`) on SQLite and on PostgreSQL, the multi-instance tests
// on SQLite, and the PostgreSQL multi-instance and fault tests (two `next start` processes
// on one database). PostgreSQL runs on a private throw-away cluster started here
// (test/support/postgres-cluster.ts); its server binaries must be installed
// (`apt-get install -y postgresql`).
// `npm test -- --quick` (npm run test:quick) is the inner loop: lint, format, type check
// and the SQLite node:test stage only. Other extra arguments go to Playwright, e.g.
// `npm test -- --project api`. Prints per-stage timings, the slowest test files
// (test-results/timings.json), every failed test again with its error's first lines
// (scripts/test-failures.ts) and one summary line counting every node:test and Playwright result.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { JSONReport } from "@playwright/test/reporter";
import { migrate } from "../lib/setup/migrate";
import { PostgresUnavailableError, postgresOptedOut, startPostgresCluster, type PostgresCluster } from "../test/support/postgres-cluster";
import { checkMigrations, reportMigrationProblems } from "./check-migrations";
import { buildIsStale } from "./start";
import { buildTestFiles, compiledTestFile, sourceTestFile } from "./test-build";
import { formatFailures, nodeTestFailures, playwrightFailures, type TestFailure } from "./test-failures";
import { makeScratch, scratchRoot } from "./test-scratch";
import { nodeFileTimings, playwrightFileTimings, reportSlowestFiles, type FileTiming } from "./test-timings";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS = path.join(ROOT, "test-results");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();
const timings: string[] = [];
const fileTimings: FileTiming[] = [];
const failures: TestFailure[] = [];
const quick = process.argv.includes("--quick");
const playwrightArgs = process.argv.slice(2).filter((arg) => arg !== "--quick");
let cluster: PostgresCluster | null = null;

function summarise(): void {
  console.log(`\n=== Timings (total ${((Date.now() - started) / 1000).toFixed(0)} s)\n${timings.map((t) => `  ${t}`).join("\n")}`);
  reportSlowestFiles(fileTimings, path.join(RESULTS, "timings.json"));
  const failed = formatFailures(failures);
  if (failed) console.log(failed);
  if (quick) console.warn("\n--quick: lint, format, type check and node:test on SQLite only; this run is not a full pass.");
  else if (!cluster) console.warn("\nPostgreSQL was skipped (LEAD_INTAKE_SKIP_POSTGRES=1): this run is not a full pass.");
  console.log(`\nSummary: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
}

function fail(message: string): never {
  console.error(`\n${message}`);
  cluster?.destroy();
  summarise();
  process.exit(1);
}

/** Times a stage that runs in this process. */
async function stage<T>(title: string, body: () => T | Promise<T>): Promise<T> {
  console.log(`\n=== ${title}`);
  const t0 = Date.now();
  try {
    return await body();
  } finally {
    timings.push(`${title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

type Step = { title: string; command: string; args: string[]; env?: NodeJS.ProcessEnv; count?: () => void };

/** Adds a finished step's results to the totals, pass or fail. */
function countResults(step: Step): void {
  try {
    step.count?.();
  } catch {
    // A step that died before writing its report has nothing to count.
  }
}

/** Runs one stage as a child process, its output streamed; a failure ends the run. */
function run(step: Step): void {
  console.log(`\n=== ${step.title}`);
  const t0 = Date.now();
  const result = spawnSync(step.command, step.args, { cwd: ROOT, stdio: "inherit", env: step.env ?? baseEnv });
  timings.push(`${step.title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  countResults(step);
  if (result.status !== 0) fail(`${step.title} failed (exit ${result.status ?? result.signal}).`);
}

/**
 * Runs one step as a child process beside others: a line says when it starts, and its
 * output is held and printed whole when it ends, so that side-by-side logs do not
 * interleave. Resolves whether it passed; a failure is kept for `failSideBySide`.
 */
const sideBySideFailures: string[] = [];
async function runBeside(step: Step): Promise<boolean> {
  console.log(`\n--- started: ${step.title}`);
  const t0 = Date.now();
  const child = spawn(step.command, step.args, { cwd: ROOT, env: step.env ?? baseEnv, stdio: ["ignore", "pipe", "pipe"] });
  const output: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
  const status = await new Promise<number | string | null>((resolve) => child.on("close", (code, signal) => resolve(code ?? signal)));
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`\n=== ${step.title} (side by side, ${seconds} s)`);
  process.stdout.write(Buffer.concat(output));
  timings.push(`${step.title}: ${seconds} s (side by side)`);
  countResults(step);
  if (status === 0) return true;
  sideBySideFailures.push(`${step.title} failed (exit ${status}).`);
  return false;
}

/** Runs steps one after the other (a function makes its step when its turn comes; null: nothing to run), stopping at the first failure. */
async function lane(steps: (Step | (() => Step | null | Promise<Step | null>))[]): Promise<boolean> {
  for (const entry of steps) {
    const step = typeof entry === "function" ? await entry() : entry;
    if (step && !(await runBeside(step))) return false;
  }
  return true;
}

/** Ends the run if a side-by-side step failed, once all of them have ended. */
function failSideBySide(): void {
  if (sideBySideFailures.length) fail(sideBySideFailures.join("\n"));
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.includes("generated"))
    .map((file) => path.join(dir, file))
    .sort();
}

/** Which databases a test file runs on, from its useTestDatabase() call. */
function databasesOf(file: string): { sqlite: boolean; postgres: boolean } {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  const only = /useTestDatabase\(\{\s*provider:\s*"(sqlite|postgres)"/.exec(source)?.[1];
  if (!/\buseTestDatabase\(/.test(source)) return { sqlite: true, postgres: false };
  return { sqlite: only !== "postgres", postgres: only !== "sqlite" };
}

function countNodeTests(tapFile: string, title: string): void {
  const tap = readFileSync(tapFile, "utf8");
  failures.push(...nodeTestFailures(title, tap));
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  totals.passed += count("pass");
  // A cancelled test (its file ended, or its promise could never settle) did not pass: it
  // counts as failed, as the stage's exit status does.
  totals.failed += count("fail") + count("cancelled");
  totals.skipped += count("skipped") + count("todo");
}

function countPlaywrightTests(jsonFile: string, title: string): void {
  const report = JSON.parse(readFileSync(jsonFile, "utf8")) as JSONReport;
  const { stats, suites } = report;
  fileTimings.push(...playwrightFileTimings(title, suites));
  failures.push(...playwrightFailures(title, report));
  // Playwright retries nothing (playwright.config.ts), so no result is "flaky".
  totals.passed += stats.expected;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

/**
 * A node:test stage over `files` (null: none), its results written to `tapName` and counted.
 * `compiled`: run the files as buildTestFiles compiled them (scripts/test-build.ts), not
 * through tsx.
 */
function nodeTest(
  title: string,
  files: string[],
  tapName: string,
  env: NodeJS.ProcessEnv,
  { concurrency = 2, compiled = false }: { concurrency?: number; compiled?: boolean } = {},
): Step | null {
  if (!files.length) return null;
  const tap = path.join(RESULTS, tapName);
  const perFile = tap.replace(/\.tap$/, ".files.json");
  rmSync(tap, { force: true });
  rmSync(perFile, { force: true });
  return {
    title,
    command: process.execPath,
    args: [
      ...(compiled ? ["--enable-source-maps"] : ["--import", "tsx"]),
      // Each test file is a process of a few seconds that compiles Prisma's query compiler
      // (WebAssembly) afresh; V8's optimising tier for it (TurboFan) costs more CPU than it
      // saves in so short a life. Liftoff alone, the SQLite pass's 216 files alone on the
      // quiet machine: 203 core-s instead of 247 (docs/development.md "How long the suite
      // takes"). Node passes the flag on to each file's process; the app's servers keep V8's defaults.
      "--liftoff-only",
      "--test",
      `--test-concurrency=${concurrency}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      `--test-reporter=${path.join(ROOT, "test/support/file-timings-reporter.mjs")}`,
      `--test-reporter-destination=${perFile}`,
      ...(compiled ? files.map((file) => compiledTestFile(file)) : files),
    ],
    env,
    count: () => {
      countNodeTests(tap, title);
      fileTimings.push(...nodeFileTimings(title, perFile).map((timing) => ({ ...timing, file: sourceTestFile(timing.file) })));
    },
  };
}

/**
 * A Playwright pass, its report in `name`.json and its artefacts in test-results/`name`/
 * (each pass its own folder: Playwright empties its output folder when it starts).
 */
function playwright(title: string, name: string, env: NodeJS.ProcessEnv): Step {
  const json = path.join(RESULTS, `${name}.json`);
  rmSync(json, { force: true });
  return {
    title,
    command: bin("playwright"),
    args: ["test", "--reporter=list,json", `--output=${path.join(RESULTS, name)}`, ...playwrightArgs],
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
    count: () => countPlaywrightTests(json, title),
  };
}

mkdirSync(RESULTS, { recursive: true });
// Every temporary file of the run in one folder, on a RAM disk where there is one, deleted
// at the end (scripts/test-scratch.ts): TMPDIR names it for every process the run starts.
const { scratch, tmp } = makeScratch(scratchRoot());
process.on("exit", () => {
  // The cluster's folder is in it: its server stops before its files go.
  cluster?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});
// Ctrl-C or a CI's stop: the same clean-up (a RAM disk keeps what is left until a reboot).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
process.env.TMPDIR = baseEnv.TMPDIR = tmp;
// The suites load a 2-core machine: allow queued connections more than the 3 s
// production default (the fault tests set their own, short timeouts).
const suiteEnv: NodeJS.ProcessEnv = { ...baseEnv, DB_CONNECT_TIMEOUT_MS: "30000" };

// First, so a machine without PostgreSQL fails at once with the command that fixes it.
cluster = await stage("Start a private PostgreSQL cluster", async () => {
  if (quick) return null;
  if (postgresOptedOut()) {
    console.warn("LEAD_INTAKE_SKIP_POSTGRES=1: the PostgreSQL half of the suite is NOT run.");
    return null;
  }
  try {
    return await startPostgresCluster();
  } catch (error) {
    if (error instanceof PostgresUnavailableError) fail(error.message);
    throw error;
  }
});

// The static checks, on the two cores side by side: ESLint (in one thread) then Prettier on
// one; Next's route types, tsc and the import-cycle check (madge) on the other. Measured on
// a fresh clone's CI run (ci21): ESLint 35 s + Prettier 17 s against tsc 41 s + madge 10 s.
// Next's route types (.next/types, checked by tsc through tsconfig.json) without a build:
// next build itself leaves type checking to this stage (next.config.ts).
const staticChecks = Date.now();
await Promise.all([
  lane([
    {
      title: "Lint (ESLint: Next's rules and the import direction)",
      command: bin("eslint"),
      args: ["--concurrency=off", "--max-warnings=0", "."],
    },
    { title: "Format check (Prettier)", command: bin("prettier"), args: ["--check", "--log-level=warn", "."] },
  ]),
  lane([
    { title: "Route types (next typegen)", command: bin("next"), args: ["typegen"] },
    { title: "Type check", command: bin("tsc"), args: ["--noEmit"] },
    {
      title: "Import cycles between product files (madge, scripts/check-cycles.ts)",
      command: process.execPath,
      args: ["--import", "tsx", path.join(ROOT, "scripts", "check-cycles.ts")],
    },
  ]),
]);
timings.push(`Static checks, side by side (wall): ${((Date.now() - staticChecks) / 1000).toFixed(1)} s`);
failSideBySide();

if (cluster) {
  const postgresUrl = cluster.url();
  const problems = await stage("Migration drift check (both providers against prisma/models.prisma and each other)", () =>
    checkMigrations({ postgresUrl }),
  );
  reportMigrationProblems(problems);
  if (problems.length) fail("Migration drift check failed.");
}

// The lint rules' own test writes probe files into app/, components/ and lib/ (where the
// ESLint config applies): alone, before anything runs beside it. Run beside the browser
// lane it made the build stale under its servers, and each server it started began a
// second `next build` (scripts/start.ts buildIsStale) while the shared one served.
const LINT_RULES_TEST = path.join("scripts", "lint-rules.test.ts");
run(nodeTest("The lint rules' tests (node:test, probe files in the tree)", [LINT_RULES_TEST], "node-lint-rules.tap", baseEnv)!);
const unitFiles = [...testFiles("lib"), ...testFiles("components"), ...testFiles("test"), ...testFiles("scripts")].filter(
  (file) => file !== LINT_RULES_TEST,
);
await stage("Compile the node:test files (esbuild, scripts/test-build.ts)", () => buildTestFiles(unitFiles));
// Migrated once per provider; each test file copies it (test/support/test-database.ts).
const sqliteTemplate = `file:${path.join(scratch, "template.db")}`;
await stage("Migrate the SQLite template", () => migrate({ ...baseEnv, DATABASE_URL: sqliteTemplate }));
const nodeSqlite = nodeTest(
  "Unit and integration tests on SQLite (node:test)",
  unitFiles.filter((file) => databasesOf(file).sqlite),
  "node-sqlite.tap",
  { ...suiteEnv, TEST_DATABASE_URL: sqliteTemplate },
  { compiled: true },
);

if (quick) {
  if (nodeSqlite) run(nodeSqlite);
  summarise();
  process.exit(totals.failed ? 1 : 0);
}

let postgresTemplate = "";
let e2eDatabase = "";
if (cluster) {
  postgresTemplate = await cluster.createDatabase("lead_intake_template");
  await stage("Migrate the PostgreSQL template", () => migrate({ ...baseEnv, DATABASE_URL: postgresTemplate }));
  e2eDatabase = await cluster.createDatabase("lead_intake_e2e");
}

// The rest in two lanes side by side. One after the other, the stages kept the two cores
// only partly busy (node:test files wait on their databases and timers, the browser
// journeys on pages and servers): docs/development.md "How long the suite takes". The lanes
// are about as long as each other (measured):
// - the browser lane: the build, Playwright on SQLite, then on PostgreSQL, then the SQLite
//   multi-instance tests;
// - the node lane: node:test on SQLite, then on PostgreSQL, then the PostgreSQL
//   multi-instance and fault tests (each file starts a cluster of its own).
// Each Playwright pass has its own server, database, port and output folder.
const multiInstanceSqlite = () =>
  // Two `next start` on one SQLite file (one shared pair of servers for the file).
  nodeTest(
    "Multi-instance tests on SQLite (node:test, two next start)",
    testFiles("e2e/sqlite"),
    "node-multi-instance-sqlite.tap",
    baseEnv,
    { concurrency: 1 },
  );
const multiInstancePostgres = () =>
  // Each file starts its own cluster and two app instances: one file at a time.
  nodeTest(
    "Multi-instance and fault tests on PostgreSQL (node:test, two next start)",
    testFiles("e2e/postgres"),
    "node-multi-instance.tap",
    baseEnv,
    { concurrency: 1 },
  );
const build = buildIsStale() ? { title: "Production build", command: bin("next"), args: ["build"] } : null;
const sideBySide = Date.now();
await Promise.all([
  lane([
    () => build,
    playwright("HTTP and browser tests on SQLite (Playwright)", "playwright-sqlite", suiteEnv),
    () =>
      cluster
        ? playwright("HTTP and browser tests on PostgreSQL (Playwright)", "playwright-postgres", {
            ...suiteEnv,
            E2E_DATABASE_URL: e2eDatabase,
          })
        : null,
    multiInstanceSqlite,
  ]),
  lane([
    () => nodeSqlite,
    () =>
      cluster
        ? nodeTest(
            "Integration tests on PostgreSQL (node:test)",
            unitFiles.filter((file) => databasesOf(file).postgres),
            "node-postgres.tap",
            {
              ...suiteEnv,
              TEST_DATABASE_URL: postgresTemplate,
            },
            { compiled: true },
          )
        : null,
    () => (cluster ? multiInstancePostgres() : null),
  ]),
]);
cluster?.destroy();
timings.push(`Tests in two lanes, side by side (wall): ${((Date.now() - sideBySide) / 1000).toFixed(1)} s`);
failSideBySide();

summarise();
