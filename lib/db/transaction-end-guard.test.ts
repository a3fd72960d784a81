import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { useTestDatabase } from "../../test/support/test-database";
import { adapterFor } from "./client";
import { isDatabaseUnavailable } from "./errors";

// A statement sent to a transaction after its ROLLBACK or COMMIT is refused, not run
// (lib/db/pg-transaction-release.ts; the SQLite adapter's twin). Prisma's query interpreter runs
// one operation's statements one after another on the transaction it fetched when the operation
// began, and the transaction's timeout sends ROLLBACK in between; this test sends them in that
// order to the adapter the app's client uses (adapterFor). Without the guard the second
// statement ran after the ROLLBACK outside any transaction and committed alone: on PostgreSQL
// on the connection handed back to the pool, on SQLite on the shared connection.

const database = await useTestDatabase();
let adapter: SqlDriverAdapter;

const sql = (text: string): SqlQuery => ({ sql: text, args: [], argTypes: [] });
const rowsKept = async () => Number((await adapter.queryRaw(sql(`SELECT count(*) AS n FROM "AfterEnd"`))).rows[0]![0]);

before(async () => {
  adapter = await adapterFor(database.url, database.provider).connect();
  await adapter.executeRaw(sql(`CREATE TABLE "AfterEnd" ("id" integer)`));
});
after(() => adapter.dispose());

/** A transaction with one row written, then its ROLLBACK (or COMMIT) sent and not yet answered. */
async function endSent(end: "ROLLBACK" | "COMMIT"): Promise<{ tx: Transaction; ended: Promise<number> }> {
  const tx = await adapter.startTransaction();
  await tx.executeRaw(sql(`INSERT INTO "AfterEnd" ("id") VALUES (1)`));
  const ended = tx.executeRaw(sql(end));
  return { tx, ended };
}

const refused = (error: unknown) => {
  assert.equal((error as { cause?: { kind?: string } }).cause?.kind, "TransactionAlreadyClosed", String(error));
  assert.equal(isDatabaseUnavailable(error), true, "answered as the database's unavailability (503), as a timeout is");
  return true;
};

test("a write sent after a timeout's ROLLBACK is refused and not run outside the transaction", { timeout: 30_000 }, async () => {
  await adapter.executeRaw(sql(`DELETE FROM "AfterEnd"`));
  const { tx, ended } = await endSent("ROLLBACK");
  const late = await Promise.allSettled([
    tx.executeRaw(sql(`INSERT INTO "AfterEnd" ("id") VALUES (2)`)),
    tx.queryRaw(sql(`INSERT INTO "AfterEnd" ("id") VALUES (3) RETURNING "id"`)),
  ]);
  await ended;
  await tx.rollback();
  assert.equal(await rowsKept(), 0, "neither the rolled-back row nor a row sent after the ROLLBACK is stored");
  for (const outcome of late) {
    assert.equal(outcome.status, "rejected");
    refused((outcome as PromiseRejectedResult).reason);
  }
});

test("a statement after COMMIT is refused; the committed row stays and the connection serves again", { timeout: 30_000 }, async () => {
  await adapter.executeRaw(sql(`DELETE FROM "AfterEnd"`));
  const { tx, ended } = await endSent("COMMIT");
  const late = tx.executeRaw(sql(`INSERT INTO "AfterEnd" ("id") VALUES (2)`)).then(
    () => null,
    (error: unknown) => error,
  );
  await ended;
  await tx.commit();
  assert.equal(await rowsKept(), 1, "the committed row alone, not the one sent after the COMMIT");
  refused(await late);
  const next = await adapter.startTransaction();
  await next.executeRaw(sql(`INSERT INTO "AfterEnd" ("id") VALUES (4)`));
  await next.executeRaw(sql("COMMIT"));
  await next.commit();
  assert.equal(await rowsKept(), 2, "a transaction after it runs as usual");
});
