import assert from "node:assert/strict";
import { test } from "node:test";

// A transaction whose COMMIT fails gives its connection back (lib/db/pg-transaction-release.ts
// on PostgreSQL; the SQLite adapter's lock on SQLite). With one connection in the pool, the
// transactions after three such failures still start, and $disconnect still ends: before the
// fix, on PostgreSQL the first failed COMMIT kept the only connection, every later
// transaction waited out its maxWait ("Unable to start a transaction in the given time") and
// $disconnect (pool.end()) waited forever. The COMMIT is refused by a constraint checked at
// commit time, as a deferred constraint or trigger, a statement timeout at commit or a read
// timeout after an event-loop stall would refuse it.

process.env.DB_POOL_SIZE = "1";
const { useTestDatabase } = await import("../../test/support/test-database");
const database = await useTestDatabase();
const { db } = await import("./client");

const postgres = database.provider === "postgres";

if (postgres) {
  await db().$executeRawUnsafe(`CREATE TABLE "CommitRefused" ("id" integer)`);
  await db().$executeRawUnsafe(
    `CREATE FUNCTION commit_refused() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$`,
  );
  await db().$executeRawUnsafe(
    `CREATE CONSTRAINT TRIGGER "CommitRefused_check" AFTER INSERT ON "CommitRefused" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_refused()`,
  );
} else {
  await db().$executeRawUnsafe(`CREATE TABLE "CommitRefusedParent" ("id" INTEGER PRIMARY KEY)`);
  await db().$executeRawUnsafe(
    `CREATE TABLE "CommitRefused" ("id" INTEGER, "parent" INTEGER REFERENCES "CommitRefusedParent" ("id") DEFERRABLE INITIALLY DEFERRED)`,
  );
}

/** A transaction whose statements succeed and whose COMMIT is refused. */
const refusedAtCommit = () =>
  db().$transaction(
    async (tx) => {
      if (postgres) await tx.$executeRawUnsafe(`INSERT INTO "CommitRefused" ("id") VALUES (1)`);
      else await tx.$executeRawUnsafe(`INSERT INTO "CommitRefused" ("id", "parent") VALUES (1, 999)`);
    },
    { maxWait: 5_000, timeout: 10_000 },
  );

// The time limit makes a held lock (SQLite) or connection a failure rather than a hang.
test(
  "three refused COMMITs in a row leave the one pool connection free for the next transaction, and $disconnect ends",
  { timeout: 60_000 },
  async () => {
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        refusedAtCommit(),
        /refused at commit|FOREIGN KEY constraint failed|ForeignKeyConstraintViolation/i,
        `refused commit ${i + 1}`,
      );
    }
    const after = await db().$transaction(async (tx) => tx.team.count(), { maxWait: 5_000, timeout: 10_000 });
    assert.equal(typeof after, "number", "a transaction starts on the only connection");
    assert.equal(await db().team.count(), after, "and a plain query runs");
    const kept = await db().$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "CommitRefused"`);
    assert.equal(Number(kept[0]!.n), 0, "the refused transactions' rows were rolled back");
    const ended = await Promise.race([
      db()
        .$disconnect()
        .then(() => "ended"),
      new Promise((resolve) => setTimeout(resolve, 10_000, "still waiting after 10 s")),
    ]);
    assert.equal(ended, "ended");
  },
);
