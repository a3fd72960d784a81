import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { databaseProvider, databaseUrl, sqliteFilePath } from "../db/database-url";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs the Prisma CLI with the config of the provider DATABASE_URL names. */
export function runPrisma(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const url = databaseUrl(env);
  const provider = databaseProvider(url);
  if (provider === "sqlite") mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const config = provider === "postgres" ? ["--config", "prisma.pg.config.ts"] : [];
  const result = spawnSync(path.join(ROOT, "node_modules/.bin/prisma"), [...args, ...config], {
    cwd: ROOT,
    env: { ...env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`prisma ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/** Applies every pending migration of the configured database. */
export function migrate(env: NodeJS.ProcessEnv = process.env): void {
  runPrisma(["migrate", "deploy"], env);
}
