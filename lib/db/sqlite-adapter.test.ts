import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { useTestDatabase } from "../../test/support/test-database";
import { PrismaClient } from "../generated/sqlite/client";
import { createTeam } from "../teams/team-store";
import { db, type Db } from "./client";

const database = await useTestDatabase({ provider: "sqlite" });
const team = await createTeam({ slug: "adapter", name: "Adapter" });

type Gate = { open: Promise<void>; release: () => void };
function gate(): Gate {
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  return { open, release };
}

const sourceNames = async (client: Db) =>
  (await client.leadSource.findMany({ where: { teamId: team.id }, select: { name: true } })).map((s) => s.name).sort();

const addSource = (client: Pick<Db, "leadSource">, name: string) =>
  client.leadSource.create({ data: { teamId: team.id, name, nameKey: name.toLowerCase() } });

/** Opens an interactive transaction that writes `name`, then waits for the gate and rolls back. */
function rolledBackTransaction(client: Db, name: string) {
  const entered = gate();
  const finish = gate();
  const done = client.$transaction(async (tx) => {
    await addSource(tx, name);
    entered.release();
    await finish.open;
    throw new Error("roll back");
  });
  return { entered: entered.open, finish: finish.release, done };
}

const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe("sqliteAdapter", () => {
  test("sets WAL, NORMAL sync and enforced foreign keys", async () => {
    const pragma = async (name: string) => Object.values((await db().$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0];
    assert.equal(String(await pragma("journal_mode")), "wal");
    assert.equal(Number(await pragma("synchronous")), 1);
    assert.equal(Number(await pragma("foreign_keys")), 1);
  });

  test("a plain write issued while an interactive transaction is open is not rolled back with it", async () => {
    const tx = rolledBackTransaction(db(), "Rolled back");
    await tx.entered;
    const plain = addSource(db(), "Kept");
    assert.equal(await settlesWithin(plain, 200), false, "the plain write must wait for the open transaction");
    tx.finish();
    await assert.rejects(tx.done, /roll back/);
    await plain;
    assert.deepEqual(await sourceNames(db()), ["API", "Kept"]);
  });

  test("a plain read issued while a transaction is open does not see its uncommitted write", async () => {
    const tx = rolledBackTransaction(db(), "Uncommitted");
    await tx.entered;
    const read = db().leadSource.count({ where: { teamId: team.id, name: "Uncommitted" } });
    tx.finish();
    await assert.rejects(tx.done);
    assert.equal(await read, 0);
  });

  test("a transaction holds the write lock from BEGIN: another process's write waits for it instead of breaking it", async () => {
    // Another process on the same file, impatient (100 ms busy timeout) so that the test
    // does not sit in its synchronous busy wait.
    const other = new Database(database.file!, { timeout: 100 });
    try {
      const otherWrite = await db().$transaction(async (tx) => {
        await tx.leadSource.count({ where: { teamId: team.id } });
        let outcome = "written";
        try {
          other.prepare(`UPDATE "Team" SET "name" = 'Renamed elsewhere' WHERE "id" = ?`).run(team.id);
        } catch (error) {
          outcome = (error as { code?: string }).code ?? String(error);
        }
        // With a deferred BEGIN the other write went through, and this one failed at once
        // with SQLITE_BUSY: the read above had pinned a snapshot that is no longer current.
        await addSource(tx, "Written after a read");
        return outcome;
      });
      assert.equal(otherWrite, "SQLITE_BUSY");
      assert.ok((await sourceNames(db())).includes("Written after a read"));
      // Once the transaction has committed, the other process writes as usual.
      other.prepare(`UPDATE "Team" SET "name" = 'Renamed elsewhere' WHERE "id" = ?`).run(team.id);
    } finally {
      other.close();
    }
  });

  test("without the wrapper, the stock adapter loses such a write (why the wrapper exists)", async () => {
    const stock = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: database.file! }) });
    try {
      const tx = rolledBackTransaction(stock, "Stock rolled back");
      await tx.entered;
      await addSource(stock, "Stock lost");
      tx.finish();
      await assert.rejects(tx.done, /roll back/);
      const names = await sourceNames(stock);
      assert.ok(!names.includes("Stock rolled back"));
      assert.ok(!names.includes("Stock lost"), "adapter-better-sqlite3 no longer shares its connection: revisit lib/db/sqlite-adapter.ts");
    } finally {
      await stock.$disconnect();
    }
  });
});
