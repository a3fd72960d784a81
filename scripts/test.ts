// `npm test`: lint, format check, type check, migration drift check, then every suite on
// both databases: unit and integration tests (node:test) and the HTTP and browser suites
// (Playwright against `next start`) on SQLite and on PostgreSQL, the multi-instance tests
// on SQLite, then the PostgreSQL multi-instance and fault tests (two `next start` processes
// on one database). PostgreSQL
// runs on a private throw-away cluster started here (test/support/postgres-cluster.ts); its
// server binaries must be installed (`apt-get install -y postgresql`).
// `npm test -- --quick` (npm run test:quick) is the inner loop: lint, format, type check
// and the SQLite node:test stage only. Other extra arguments go to Playwright, e.g.
// `npm test -- --project api`. Prints per-stage timings, the slowest test files
// (test-results/timings.json) and one summary line counting every node:test and
// Playwright result.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../lib/setup/migrate";
import { PostgresUnavailableError, postgresOptedOut, startPostgresCluster, type PostgresCluster } from "../test/support/postgres-cluster";
import { checkMigrations, reportMigrationProblems } from "./check-migrations";
import { buildIsStale } from "./start";
import { nodeFileTimings, playwrightFileTimings, reportSlowestFiles, type FileTiming, type PlaywrightSuite } from "./test-timings";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS = path.join(ROOT, "test-results");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();
const timings: string[] = [];
const fileTimings: FileTiming[] = [];
const quick = process.argv.includes("--quick");
const playwrightArgs = process.argv.slice(2).filter((arg) => arg !== "--quick");
let cluster: PostgresCluster | null = null;

function summarise(): void {
  console.log(`\n=== Timings (total ${((Date.now() - started) / 1000).toFixed(0)} s)\n${timings.map((t) => `  ${t}`).join("\n")}`);
  reportSlowestFiles(fileTimings, path.join(RESULTS, "timings.json"));
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

/** Runs one stage as a child process; `count` adds its results to the totals, pass or fail. */
function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv, count?: () => void): void {
  console.log(`\n=== ${title}`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env });
  timings.push(`${title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  try {
    count?.();
  } catch {
    // A stage that died before writing its report has nothing to count.
  }
  if (result.status !== 0) fail(`${title} failed (exit ${result.status ?? result.signal}).`);
}

type Step = { title: string; command: string; args: string[] };

/**
 * Runs groups of steps side by side (the steps of one group one after the other), each
 * child's output held and printed whole when its group ends, in order, so that logs do not
 * interleave. Each step is timed on its own; the first failure fails the stage once all ended.
 */
async function runSideBySide(groups: Step[][]): Promise<void> {
  const outputs = await Promise.all(
    groups.map(async (steps) => {
      const done: { title: string; output: string; status: number | null; seconds: number }[] = [];
      for (const step of steps) {
        const t0 = Date.now();
        const child = spawn(step.command, step.args, { cwd: ROOT, env: baseEnv, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
        done.push({ title: step.title, output, status, seconds: (Date.now() - t0) / 1000 });
        if (status !== 0) break;
      }
      return done;
    }),
  );
  const failed: string[] = [];
  for (const { title, output, status, seconds } of outputs.flat()) {
    console.log(`\n=== ${title}`);
    if (output) process.stdout.write(output);
    timings.push(`${title}: ${seconds.toFixed(1)} s (side by side)`);
    if (status !== 0) failed.push(`${title} failed (exit ${status}).`);
  }
  if (failed.length) fail(failed.join("\n"));
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

function countNodeTests(tapFile: string): void {
  const tap = readFileSync(tapFile, "utf8");
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  totals.passed += count("pass");
  totals.failed += count("fail");
  totals.skipped += count("skipped") + count("todo");
}

function countPlaywrightTests(jsonFile: string, title: string): void {
  const { stats, suites } = JSON.parse(readFileSync(jsonFile, "utf8")) as {
    stats: { expected: number; unexpected: number; skipped: number };
    suites: PlaywrightSuite[];
  };
  fileTimings.push(...playwrightFileTimings(title, suites));
  // Playwright retries nothing (playwright.config.ts), so no result is "flaky".
  totals.passed += stats.expected;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

function nodeTest(title: string, files: string[], tapName: string, env: NodeJS.ProcessEnv, concurrency = 2): void {
  if (!files.length) return;
  const tap = path.join(RESULTS, tapName);
  const perFile = tap.replace(/\.tap$/, ".files.json");
  rmSync(tap, { force: true });
  rmSync(perFile, { force: true });
  run(
    title,
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      `--test-concurrency=${concurrency}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      `--test-reporter=${path.join(ROOT, "test/support/file-timings-reporter.mjs")}`,
      `--test-reporter-destination=${perFile}`,
      ...files,
    ],
    env,
    () => {
      countNodeTests(tap);
      fileTimings.push(...nodeFileTimings(title, perFile));
    },
  );
}

function playwright(title: string, jsonName: string, env: NodeJS.ProcessEnv): void {
  const json = path.join(RESULTS, jsonName);
  rmSync(json, { force: true });
  run(title, bin("playwright"), ["test", "--reporter=list,json", ...playwrightArgs], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: json }, () =>
    countPlaywrightTests(json, title),
  );
}

mkdirSync(RESULTS, { recursive: true });
const scratch = mkdtempSync(path.join(os.tmpdir(), "lead-intake-test-run-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
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

// The static checks, on the two cores side by side: ESLint on one (in one thread: with
// --concurrency=2 each worker builds import/no-cycle's module graph again, 180 s instead of
// 88 s measured), Prettier, Next's route types and tsc one after the other on the other.
// Next's route types (.next/types, checked by tsc through tsconfig.json) without a build:
// next build itself leaves type checking to this stage (next.config.ts).
const staticChecks = Date.now();
await runSideBySide([
  [
    {
      title: "Lint (ESLint: Next's rules and the import direction)",
      command: bin("eslint"),
      args: ["--concurrency=off", "--max-warnings=0", "."],
    },
  ],
  [
    { title: "Format check (Prettier)", command: bin("prettier"), args: ["--check", "--log-level=warn", "."] },
    { title: "Route types (next typegen)", command: bin("next"), args: ["typegen"] },
    { title: "Type check", command: bin("tsc"), args: ["--noEmit"] },
  ],
]);
timings.push(`Static checks, side by side (wall): ${((Date.now() - staticChecks) / 1000).toFixed(1)} s`);

if (cluster) {
  const postgresUrl = cluster.url();
  const problems = await stage("Migration drift check (both providers against prisma/models.prisma and each other)", () =>
    checkMigrations({ postgresUrl }),
  );
  reportMigrationProblems(problems);
  if (problems.length) fail("Migration drift check failed.");
}

const unitFiles = [...testFiles("lib"), ...testFiles("components"), ...testFiles("test"), ...testFiles("scripts")];
// Migrated once per provider; each test file copies it (test/support/test-database.ts).
const sqliteTemplate = `file:${path.join(scratch, "template.db")}`;
await stage("Migrate the SQLite template", () => migrate({ ...baseEnv, DATABASE_URL: sqliteTemplate }));
nodeTest(
  "Unit and integration tests on SQLite (node:test)",
  unitFiles.filter((file) => databasesOf(file).sqlite),
  "node-sqlite.tap",
  { ...suiteEnv, TEST_DATABASE_URL: sqliteTemplate },
);
if (cluster) {
  const postgresTemplate = await cluster.createDatabase("lead_intake_template");
  await stage("Migrate the PostgreSQL template", () => migrate({ ...baseEnv, DATABASE_URL: postgresTemplate }));
  nodeTest(
    "Integration tests on PostgreSQL (node:test)",
    unitFiles.filter((file) => databasesOf(file).postgres),
    "node-postgres.tap",
    {
      ...suiteEnv,
      TEST_DATABASE_URL: postgresTemplate,
    },
  );
}

if (quick) {
  summarise();
  process.exit(totals.failed ? 1 : 0);
}

if (buildIsStale()) run("Production build", bin("next"), ["build"]);

playwright("HTTP and browser tests on SQLite (Playwright)", "playwright-sqlite.json", suiteEnv);
// Two `next start` on one SQLite file (one shared pair of servers for the file).
nodeTest(
  "Multi-instance tests on SQLite (node:test, two next start)",
  testFiles("e2e/sqlite"),
  "node-multi-instance-sqlite.tap",
  baseEnv,
  1,
);
if (cluster) {
  const e2eDatabase = await cluster.createDatabase("lead_intake_e2e");
  playwright("HTTP and browser tests on PostgreSQL (Playwright)", "playwright-postgres.json", {
    ...suiteEnv,
    E2E_DATABASE_URL: e2eDatabase,
  });
  cluster.destroy();
  // Each file starts its own cluster and two app instances: one file at a time on 2 cores.
  nodeTest(
    "Multi-instance and fault tests on PostgreSQL (node:test, two next start)",
    testFiles("e2e/postgres"),
    "node-multi-instance.tap",
    baseEnv,
    1,
  );
}

summarise();
