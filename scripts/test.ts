// `npm test`: type check, unit and integration tests (node:test, real SQLite files),
// then the HTTP and browser suites (Playwright against `next start`). Extra arguments
// go to Playwright, e.g. `npm test -- --project api`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { buildIsStale } from "./start";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n=== ${title}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.includes("generated"))
    .map((file) => path.join(dir, file))
    .sort();
}

run("Type check", bin("tsc"), ["--noEmit"]);
run("Unit and integration tests (node:test)", process.execPath, [
  "--import",
  "tsx",
  "--test",
  "--test-concurrency=2",
  ...testFiles("lib"),
]);
if (buildIsStale()) run("Production build", bin("next"), ["build"]);
run("HTTP and browser tests (Playwright)", bin("playwright"), ["test", ...process.argv.slice(2)]);
