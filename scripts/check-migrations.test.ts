import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { useTestDatabase } from "../test/support/test-database";
import { checkMigrations, compareProviders, dataStatements } from "./check-migrations";

// The drift check of `npm test` (scripts/check-migrations.ts) fed drifted copies of
// prisma/: each drift must be reported. PostgreSQL pass only (the PostgreSQL half of the
// check replays migrations on a shadow database of a real server).

const database = await useTestDatabase({ provider: "postgres" });
const ROOT = path.resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(path.join(tmpdir(), "lead-intake-drift-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of prisma/ (symlinks followed), changed by `drift`. */
function driftedCopy(name: string, drift: (dir: string) => void): string {
  const dir = path.join(scratch, name);
  cpSync(path.join(ROOT, "prisma"), dir, { recursive: true, dereference: true });
  drift(dir);
  return dir;
}

function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, "utf8");
  const after = change(before);
  assert.notEqual(after, before, `the drift must change ${file}`);
  writeFileSync(file, after);
}

const INIT = "20261123000000_init";
const check = (prismaDir: string) => checkMigrations({ postgresUrl: database.url, prismaDir });
const matching = (problems: string[], pattern: RegExp) => problems.filter((problem) => pattern.test(problem));

test("an unchanged copy of prisma/ passes (the check has no false alarms)", () => {
  assert.deepEqual(check(driftedCopy("clean", () => {})), []);
});

test("a PostgreSQL twin that lost a column, a migration without its twin and different seed rows are each reported", () => {
  const problems = check(
    driftedCopy("drifted-pair", (dir) => {
      edit(path.join(dir, "postgres/migrations", INIT, "migration.sql"), (sql) => sql.replace(/^\s*"lastUsedAt" TIMESTAMP\(3\),\n/m, ""));
      edit(path.join(dir, "sqlite/migrations", INIT, "migration.sql"), (sql) => sql.replace("VALUES ('lead', 0)", "VALUES ('lead', 100)"));
      mkdirSync(path.join(dir, "sqlite/migrations/20991231000000_extra"));
      writeFileSync(
        path.join(dir, "sqlite/migrations/20991231000000_extra/migration.sql"),
        'CREATE INDEX "Lead_email_idx2" ON "Lead"("email");\n',
      );
    }),
  );
  assert.equal(
    matching(problems, /^PostgreSQL: .*does not produce prisma\/models\.prisma[\s\S]*lastUsedAt/).length,
    1,
    problems.join("\n"),
  );
  assert.equal(matching(problems, /prisma\/postgres\/migrations\/20991231000000_extra is missing/).length, 1, problems.join("\n"));
  assert.equal(matching(problems, new RegExp(`^${INIT}: the data statements differ`)).length, 1, problems.join("\n"));
  assert.equal(matching(problems, /^SQLite: /).length, 1, "the extra SQLite index is not in the models either");
});

test("a model changed without a migration is reported for both providers", () => {
  const problems = check(
    driftedCopy("unmigrated-model", (dir) => {
      edit(path.join(dir, "models.prisma"), (models) => models.replace(/^model Team \{\n/m, "model Team {\n  motto String?\n"));
      for (const provider of ["sqlite", "postgres"]) cpSync(path.join(dir, "models.prisma"), path.join(dir, provider, "models.prisma"));
    }),
  );
  assert.equal(matching(problems, /^SQLite: [\s\S]*motto/).length, 1, problems.join("\n"));
  assert.equal(matching(problems, /^PostgreSQL: [\s\S]*motto/).length, 1, problems.join("\n"));
});

test("a provider whose models.prisma is no longer the shared file is reported", () => {
  const dir = driftedCopy("forked-models", (copy) =>
    edit(path.join(copy, "postgres/models.prisma"), (models) => models.replace(/^model Team \{\n/m, "model Team {\n  motto String?\n")),
  );
  const problems = compareProviders(dir);
  assert.equal(matching(problems, /^prisma\/postgres\/models\.prisma differs from prisma\/models\.prisma/).length, 1, problems.join("\n"));
});

test("SQLite's table redefinition copy is not a data statement; a real INSERT still is", () => {
  const redefinition = `CREATE TABLE "new_ApiRequest" ("id" INTEGER);
INSERT INTO "new_ApiRequest" ("id", "teamId") SELECT "id", "teamId" FROM "ApiRequest";
DROP TABLE "ApiRequest";
ALTER TABLE "new_ApiRequest" RENAME TO "ApiRequest";`;
  assert.deepEqual(dataStatements(redefinition), []);
  assert.deepEqual(dataStatements(`INSERT INTO "Counter" ("name", "value") VALUES ('lead', 0);`), [
    `INSERT INTO "Counter" ("name", "value") VALUES ('lead', 0)`,
  ]);
  // A SQLite trigger's body is schema (its PostgreSQL twin is a function's string), the data around it is data.
  const trigger = `CREATE TRIGGER "t" AFTER DELETE ON "A"\nBEGIN\n  DELETE FROM "B" WHERE "id" = OLD."id";\n  INSERT INTO "B" ("id") SELECT "id" FROM "A" WHERE "id" = OLD."id";\nEND;\nUPDATE "A" SET "x" = 1;`;
  assert.deepEqual(dataStatements(trigger), [`UPDATE "A" SET "x" = 1`]);
});

test("a PostgreSQL migration with a ';' inside a comment is reported: migrate deploy would run the rest of the comment", () => {
  const dir = driftedCopy("semicolon-comment", (copy) =>
    edit(path.join(copy, "postgres/migrations", INIT, "migration.sql"), (sql) => `-- Leads and keys; the rest of this runs as SQL\n${sql}`),
  );
  const problems = compareProviders(dir);
  assert.equal(
    matching(problems, new RegExp(`^prisma/postgres/migrations/${INIT}: a ";" inside a comment`)).length,
    1,
    problems.join("\n"),
  );
  assert.deepEqual(compareProviders(), [], "the project's own migrations");
});
