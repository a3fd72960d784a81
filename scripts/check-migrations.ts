// Fails when the two providers' migrations drift from prisma/models.prisma or from
// each other. Run by `npm test`; alone: `npx tsx scripts/check-migrations.ts`, which
// starts its own private PostgreSQL cluster.
//
// 0. Both providers' schemas hold the same models: prisma/sqlite/models.prisma and
//    prisma/postgres/models.prisma are prisma/models.prisma (symlinks; copies must match).
// 1. The same migration folders, each with a migration.sql, on both providers: every
//    SQLite migration has a PostgreSQL twin of the same name and vice versa.
// 2. The same data statements (INSERT/UPDATE/DELETE, e.g. the seed rows) in each twin.
// 3. Replaying each provider's migrations on an empty shadow database yields exactly
//    the schema of models.prisma (`prisma migrate diff --from-migrations … --exit-code`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The folder holding models.prisma, sqlite/ and postgres/ (tests pass a drifted copy). */
const PRISMA_DIR = path.join(ROOT, "prisma");
const PROVIDERS = {
  sqlite: { dir: "sqlite", config: "prisma.config.ts", lock: 'provider = "sqlite"' },
  postgres: { dir: "postgres", config: "prisma.pg.config.ts", lock: 'provider = "postgresql"' },
} as const;
type Provider = keyof typeof PROVIDERS;

function migrationFolders(provider: Provider, prismaDir: string): string[] {
  const dir = path.join(prismaDir, PROVIDERS[provider].dir, "migrations");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function migrationSql(provider: Provider, folder: string, prismaDir: string): string | null {
  const file = path.join(prismaDir, PROVIDERS[provider].dir, "migrations", folder, "migration.sql");
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

/**
 * The data statements of a migration, normalised: they must match across providers.
 * SQLite's table redefinition (Prisma's "RedefineTables": copy into "new_<table>", drop,
 * rename) copies rows that PostgreSQL changes in place with ALTER TABLE: not data.
 * Neither is a SQLite trigger's body (BEGIN … END), whose statements PostgreSQL's twin
 * holds in a function's body.
 */
export function dataStatements(sql: string): string[] {
  return (
    sql
      .replace(/--.*$/gm, "")
      // A SQLite trigger's body is schema, not data (PostgreSQL's is a function's string).
      .replace(/\bCREATE\s+TRIGGER\b[\s\S]*?\bEND\s*;/gi, "")
      .split(";")
      .map((statement) => statement.replace(/\s+/g, " ").trim())
      .filter((statement) => /^(INSERT|UPDATE|DELETE)\b/i.test(statement))
      .filter((statement) => !/^INSERT INTO "new_\w+" \(.*\) SELECT .* FROM "\w+"$/i.test(statement))
  );
}

/** Problems with the models and migration folders of the two providers (empty when they agree). */
export function compareProviders(prismaDir = PRISMA_DIR): string[] {
  const problems: string[] = [];
  const models = readFileSync(path.join(prismaDir, "models.prisma"), "utf8");
  for (const provider of Object.keys(PROVIDERS) as Provider[]) {
    const file = path.join(prismaDir, PROVIDERS[provider].dir, "models.prisma");
    if (!existsSync(file) || readFileSync(file, "utf8") !== models) {
      problems.push(
        `prisma/${PROVIDERS[provider].dir}/models.prisma differs from prisma/models.prisma: it must be a symlink to ../models.prisma (one source of truth for both providers)`,
      );
    }
  }
  const sqlite = migrationFolders("sqlite", prismaDir);
  const postgres = migrationFolders("postgres", prismaDir);
  for (const folder of sqlite.filter((name) => !postgres.includes(name))) {
    problems.push(`prisma/postgres/migrations/${folder} is missing: every SQLite migration needs a PostgreSQL twin of the same name`);
  }
  for (const folder of postgres.filter((name) => !sqlite.includes(name))) {
    problems.push(`prisma/sqlite/migrations/${folder} is missing: every PostgreSQL migration needs a SQLite twin of the same name`);
  }
  for (const provider of Object.keys(PROVIDERS) as Provider[]) {
    const lock = path.join(prismaDir, PROVIDERS[provider].dir, "migrations", "migration_lock.toml");
    if (!existsSync(lock) || !readFileSync(lock, "utf8").includes(PROVIDERS[provider].lock)) {
      problems.push(`prisma/${PROVIDERS[provider].dir}/migrations/migration_lock.toml must exist and say ${PROVIDERS[provider].lock}`);
    }
  }
  for (const folder of sqlite.filter((name) => postgres.includes(name))) {
    const sqliteSql = migrationSql("sqlite", folder, prismaDir);
    const postgresSql = migrationSql("postgres", folder, prismaDir);
    if (sqliteSql === null || postgresSql === null) {
      problems.push(`${folder}: both twins need a migration.sql`);
      continue;
    }
    // `prisma migrate deploy` through the pg adapter splits a script at every ";", comments
    // included: the rest of a comment after one is run as SQL (seen: syntax error at "the").
    const comment = /^[ \t]*--.*;[ \t]*\S.*$/m.exec(postgresSql)?.[0];
    if (comment) problems.push(`prisma/postgres/migrations/${folder}: a ";" inside a comment ends a statement there: ${comment.trim()}`);
    const sqliteData = dataStatements(sqliteSql);
    const postgresData = dataStatements(postgresSql);
    if (JSON.stringify(sqliteData) !== JSON.stringify(postgresData)) {
      problems.push(
        `${folder}: the data statements differ between the twins\n  sqlite:   ${sqliteData.join("\n            ") || "(none)"}\n  postgres: ${postgresData.join("\n            ") || "(none)"}`,
      );
    }
  }
  return problems;
}

/**
 * Replays a provider's migrations on a shadow database and compares the result with
 * models.prisma. `databaseUrl` is where the CLI connects (PostgreSQL: the server on
 * which it creates and drops its shadow database).
 */
export function diffMigrationsAgainstModels(provider: Provider, databaseUrl: string, prismaDir = PRISMA_DIR): string | null {
  const { dir: providerDir, config } = PROVIDERS[provider];
  const dir = path.join(prismaDir, providerDir);
  const migrations = path.join(dir, "migrations");
  const result = spawnSync(
    path.join(ROOT, "node_modules/.bin/prisma"),
    ["migrate", "diff", "--config", config, "--from-migrations", migrations, "--to-schema-datamodel", dir, "--script", "--exit-code"],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" }, encoding: "utf8" },
  );
  // --exit-code: 0 = no difference, 2 = difference, anything else = the command failed.
  if (result.status === 0) return null;
  if (result.status === 2) {
    return `prisma/${providerDir}/migrations does not produce prisma/models.prisma. The missing SQL (a new migration in both providers, same folder name):\n${result.stdout.trim()}`;
  }
  throw new Error(`prisma migrate diff (${provider}) failed (exit ${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
}

/** All the checks; returns the problems found (empty when the migrations agree). */
export function checkMigrations(options: { postgresUrl: string; prismaDir?: string }): string[] {
  const prismaDir = options.prismaDir ?? PRISMA_DIR;
  const problems = compareProviders(prismaDir);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "lead-intake-drift-"));
  try {
    const sqlite = diffMigrationsAgainstModels("sqlite", `file:${path.join(scratch, "drift.db")}`, prismaDir);
    if (sqlite) problems.push(`SQLite: ${sqlite}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const postgres = diffMigrationsAgainstModels("postgres", options.postgresUrl, prismaDir);
  if (postgres) problems.push(`PostgreSQL: ${postgres}`);
  return problems;
}

export function reportMigrationProblems(problems: string[]): void {
  if (!problems.length) {
    console.log("Migrations of both providers match prisma/models.prisma and each other.");
    return;
  }
  console.error(`Migration drift (${problems.length}):\n\n${problems.map((p) => `- ${p}`).join("\n\n")}`);
  console.error(
    "\nGenerate PostgreSQL SQL offline with:\n  DATABASE_URL=postgresql://… npx prisma migrate diff --config prisma.pg.config.ts " +
      "--from-migrations prisma/postgres/migrations --to-schema-datamodel prisma/postgres --script",
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { startPostgresCluster } = await import("../test/support/postgres-cluster");
  const cluster = await startPostgresCluster();
  try {
    const problems = checkMigrations({ postgresUrl: cluster.url() });
    reportMigrationProblems(problems);
    process.exitCode = problems.length ? 1 : 0;
  } finally {
    cluster.destroy();
  }
}
