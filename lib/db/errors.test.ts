import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { PrismaClient } from "../generated/sqlite/client";
import { isDatabaseUnavailable, isDatabaseUnreachable } from "./errors";
import { sqliteAdapter } from "./sqlite-adapter";

const withCode = (code: string, message = "failure") => Object.assign(new Error(message), { code });
const named = (name: string, message = "failure") => Object.assign(new Error(message), { name });
const causedBy = (cause: unknown, depth = 1): Error =>
  depth === 0 ? (cause as Error) : new Error("wrapper", { cause: causedBy(cause, depth - 1) });

describe("isDatabaseUnavailable", () => {
  const unavailable: [string, unknown][] = [
    ...["P1001", "P1002", "P1008", "P1017", "P1018", "P2024", "P2028", "P2034"].map((code): [string, unknown] => [
      `Prisma code ${code}`,
      withCode(code),
    ]),
    ["PrismaClientInitializationError", named("PrismaClientInitializationError")],
    ["ECONNREFUSED in the message", new Error("connect ECONNREFUSED 127.0.0.1:5432")],
    ["ECONNREFUSED as the code", withCode("ECONNREFUSED")],
    ["ECONNRESET", new Error("read ECONNRESET")],
    ["ETIMEDOUT", withCode("ETIMEDOUT")],
    ["ENOTFOUND", new Error("getaddrinfo ENOTFOUND db.internal")],
    ["pg connection terminated", new Error("Connection terminated unexpectedly")],
    ["pg shutting down", new Error("FATAL: the database system is shutting down")],
    ["pg too many clients", new Error("sorry, too many clients already")],
    ["pg statement timeout", new Error("canceling statement due to statement timeout")],
    ["SQLite locked", new Error("database is locked")],
    ["SQLITE_BUSY as the code", withCode("SQLITE_BUSY")],
    ["SQLITE_CANTOPEN as the code", withCode("SQLITE_CANTOPEN")],
    ["SQLite cannot open", new Error("unable to open database file")],
    ["transaction start timeout", new Error("Unable to start a transaction in the given time.")],
    ["transaction closed", new Error("Transaction already closed: timeout")],
    ["the reason one cause down", causedBy(withCode("P1001"))],
    ["the reason four causes down", causedBy(new Error("database is locked"), 4)],
  ];
  for (const [title, thrown] of unavailable) {
    test(`${title} → unavailable`, () => assert.equal(isDatabaseUnavailable(thrown), true));
  }

  const otherFailures: [string, unknown][] = [
    ["unique violation P2002", withCode("P2002", "Unique constraint failed on the fields: (`slug`)")],
    ["record not found P2025", withCode("P2025")],
    ["foreign key violation P2003", withCode("P2003")],
    ["a plain Error", new Error("boom")],
    ["a TypeError", new TypeError("Cannot read properties of undefined")],
    ["PrismaClientValidationError", named("PrismaClientValidationError")],
    ["a cause chain without a reason", causedBy(new Error("boom"), 3)],
    ["a string", "ECONNREFUSED"],
    ["a number", 503],
    ["null", null],
    ["undefined", undefined],
    ["an empty object", {}],
  ];
  for (const [title, thrown] of otherFailures) {
    test(`${title} → not unavailable`, () => assert.equal(isDatabaseUnavailable(thrown), false));
  }

  test("a cyclic cause chain terminates", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as Error & { cause: unknown }).cause = b;
    assert.equal(isDatabaseUnavailable(a), false);
  });
});

describe("isDatabaseUnreachable: nothing reaches the database, not one statement's failure", () => {
  const unreachable: [string, unknown][] = [
    ...["P1001", "P1002", "P1017", "P2024", "P2028"].map((code): [string, unknown] => [`Prisma code ${code}`, withCode(code)]),
    ["SQLSTATE 08006 (connection failure)", withCode("08006")],
    ["SQLSTATE 57P01 (admin shutdown)", withCode("57P01")],
    ["adapter kind ConnectionClosed", Object.assign(new Error("closed"), { kind: "ConnectionClosed" })],
    ["ECONNREFUSED", new Error("connect ECONNREFUSED 127.0.0.1:5432")],
    ["pool wait", new Error("timeout exceeded when trying to connect")],
    ["transaction start timeout", new Error("Unable to start a transaction in the given time.")],
    ["SQLite locked", new Error("database is locked")],
    ["one cause down", causedBy(withCode("P2028"))],
  ];
  for (const [title, thrown] of unreachable) {
    test(`${title} → unreachable`, () => assert.equal(isDatabaseUnreachable(thrown), true));
  }
  const oneStatement: [string, unknown][] = [
    ["P2034 (deadlock or write conflict)", withCode("P2034")],
    ["SQLSTATE 40P01 (deadlock)", withCode("40P01")],
    ["SQLSTATE 40001 (serialization)", withCode("40001")],
    ["SQLSTATE 55P03 (lock timeout)", withCode("55P03")],
    ["SQLSTATE 57014 (statement timeout)", withCode("57014")],
    ["pg statement timeout", new Error("canceling statement due to statement timeout")],
    ["transaction closed", new Error("Transaction already closed: timeout")],
    ["P1018 (a statement after the transaction's end)", withCode("P1018")],
    ["adapter kind TransactionAlreadyClosed", Object.assign(new Error("closed"), { kind: "TransactionAlreadyClosed" })],
    ["a plain Error", new Error("disk full")],
  ];
  for (const [title, thrown] of oneStatement) {
    test(`${title} → not unreachable (unavailable: ${isDatabaseUnavailable(thrown)})`, () =>
      assert.equal(isDatabaseUnreachable(thrown), false));
  }
});

describe("isDatabaseUnavailable with real SQLite driver errors", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "db-errors-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a database locked by another connection → unavailable", async () => {
    const file = path.join(dir, "locked.db");
    const holder = new Database(file);
    holder.exec("CREATE TABLE t (a INTEGER); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);");
    const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: file, timeout: 50 }) });
    try {
      await assert.rejects(client.$executeRaw`INSERT INTO t VALUES (2)`, (error: unknown) => {
        assert.equal(isDatabaseUnavailable(error), true, String(error));
        return true;
      });
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      await client.$disconnect();
    }
  });

  test("a database file whose folder is missing → unavailable", async () => {
    const client = new PrismaClient({ adapter: sqliteAdapter(`file:${path.join(dir, "missing", "app.db")}`) });
    try {
      await assert.rejects(client.$queryRaw`SELECT 1`, (error: unknown) => {
        assert.equal(isDatabaseUnavailable(error), true, String(error));
        return true;
      });
    } finally {
      await client.$disconnect().catch(() => undefined);
    }
  });
});
