// `npm test`: type check, migration drift check, then every suite on both databases:
// unit and integration tests (node:test), the HTTP and browser suites (Playwright
// against `next start`) on SQLite and on PostgreSQL, and the PostgreSQL multi-instance
// and fault tests (two `next start` processes on one database). PostgreSQL runs on a
// private cluster started here (lib/testing/postgres-cluster.ts). Extra arguments go
// to Playwright, e.g. `npm test -- --project api`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../lib/setup/migrate";
import {
  PostgresUnavailableError,
  postgresOptedOut,
  startPostgresCluster,
  type PostgresCluster,
} from "../lib/testing/postgres-cluster";
import { checkMigrations, reportMigrationProblems } from "./check-migrations";
import { buildIsStale } from "./start";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const started = Date.now();
const timings: string[] = [];

function fail(message: string): never {
  console.error(`\n${message}`);
  process.exit(1);
}

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n=== ${title}`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env });
  timings.push(`${title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (result.status !== 0) fail(`${title} failed (exit ${result.status ?? result.signal}).`);
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.includes("generated"))
    .map((file) => path.join(dir, file))
    .sort();
}

function nodeTest(title: string, files: string[], env: NodeJS.ProcessEnv, concurrency = 2): void {
  if (!files.length) return;
  run(title, process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...files], env);
}

async function startCluster(): Promise<PostgresCluster | null> {
  if (postgresOptedOut()) {
    console.warn("\nLEAD_INTAKE_SKIP_POSTGRES=1: the PostgreSQL half of the suite is NOT run.");
    return null;
  }
  try {
    return await startPostgresCluster();
  } catch (error) {
    if (error instanceof PostgresUnavailableError) fail(error.message);
    throw error;
  }
}

const playwrightArgs = process.argv.slice(2);
const scratch = mkdtempSync(path.join(os.tmpdir(), "lead-intake-test-run-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

run("Type check", bin("tsc"), ["--noEmit"]);

const cluster = await startCluster();
const postgresUrl = cluster?.url();

if (cluster && postgresUrl) {
  console.log("\n=== Migration drift check (SQLite and PostgreSQL against prisma/models.prisma)");
  const problems = checkMigrations({ postgresUrl });
  reportMigrationProblems(problems);
  if (problems.length) fail("Migration drift check failed.");
}

// Migrated once per provider; each node:test file clones it (lib/testing/test-database.ts).
const sqliteTemplate = `file:${path.join(scratch, "template.db")}`;
migrate({ ...process.env, DATABASE_URL: sqliteTemplate });
const unitFiles = testFiles("lib");
nodeTest("Unit and integration tests on SQLite (node:test)", unitFiles, { ...process.env, TEST_DATABASE_URL: sqliteTemplate });
if (cluster) {
  const postgresTemplate = await cluster.createDatabase("lead_intake_template");
  migrate({ ...process.env, DATABASE_URL: postgresTemplate });
  nodeTest("Unit and integration tests on PostgreSQL (node:test)", unitFiles, {
    ...process.env,
    TEST_DATABASE_URL: postgresTemplate,
  });
}

if (buildIsStale()) run("Production build", bin("next"), ["build"]);

run("HTTP and browser tests on SQLite (Playwright)", bin("playwright"), ["test", ...playwrightArgs]);
if (cluster) {
  const e2eDatabase = await cluster.createDatabase("lead_intake_e2e");
  run(
    "HTTP and browser tests on PostgreSQL (Playwright)",
    bin("playwright"),
    ["test", ...playwrightArgs],
    { ...process.env, E2E_DATABASE_URL: e2eDatabase },
  );
  cluster.destroy();
  // Each file starts its own cluster and two app instances; one at a time on 2 cores.
  nodeTest("Multi-instance and fault tests on PostgreSQL (node:test, two next start)", testFiles("e2e/postgres"), process.env, 1);
}

console.log(`\n=== Done in ${((Date.now() - started) / 1000).toFixed(0)} s\n${timings.map((t) => `  ${t}`).join("\n")}`);
if (!cluster) console.warn("\nPostgreSQL was skipped (LEAD_INTAKE_SKIP_POSTGRES=1): this run does not count as a full pass.");
