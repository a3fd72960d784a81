import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { DEFAULT_DATABASE_URL, databaseProvider, databaseUrl, sqliteFilePath } from "./database-url";

const withEnv = (values: Record<string, string>) => ({ NODE_ENV: "test", ...values }) as NodeJS.ProcessEnv;

describe("databaseUrl", () => {
  test("DATABASE_URL when set, else the embedded SQLite file", () => {
    assert.equal(databaseUrl(withEnv({ DATABASE_URL: " file:/tmp/x.db " })), "file:/tmp/x.db");
    assert.equal(databaseUrl(withEnv({ DATABASE_URL: "  " })), DEFAULT_DATABASE_URL);
    assert.equal(databaseUrl(withEnv({})), "file:./data/app.db");
  });
});

describe("databaseProvider", () => {
  const cases: [string, "sqlite" | "postgres"][] = [
    ["file:./data/app.db", "sqlite"],
    ["file:/var/lib/app.db?connection_limit=1", "sqlite"],
    ["postgres://u:p@localhost/db", "postgres"],
    ["postgresql://u:p@localhost:5432/db", "postgres"],
    ["POSTGRESQL://u@localhost/db", "postgres"],
  ];
  for (const [url, provider] of cases) {
    test(`${url} → ${provider}`, () => assert.equal(databaseProvider(url), provider));
  }

  test("any other scheme is refused without echoing credentials", () => {
    assert.throws(
      () => databaseProvider("mysql://root:hunter2@db/app"),
      (error: Error) => error.message.includes('got "mysql:…"') && !error.message.includes("hunter2"),
    );
  });
});

describe("sqliteFilePath", () => {
  test("strips file: and any query, resolves against the working directory", () => {
    assert.equal(sqliteFilePath("file:/tmp/app.db?mode=rwc"), "/tmp/app.db");
    assert.equal(sqliteFilePath("file:./data/app.db"), path.resolve("data/app.db"));
  });
});
