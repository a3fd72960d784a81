import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import fc from "fast-check";
import pg from "pg";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { newPool } from "../db/pg-pool";
import { createTeam } from "../teams/team-store";
import type { BatchOutcome } from "./lead-write";
import { writeLeadsPostgres } from "./lead-writer-postgres";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";

// A batch's COMMIT whose answer never reaches the app (the client's read timeout after the
// server received it, a connection cut) may have committed all the same. The writer asks
// PostgreSQL (pg_xact_status) instead of failing the batch: its leads exist, so each sender is
// answered 201, not told to retry and make a second lead. Made here without faults: a deferred
// trigger keeps the COMMIT busy on the server past a client read timeout of 300 ms. A connection
// cut (the ROLLBACK cannot be sent either, so the question goes through another connection of
// the pool) is made by a TCP proxy in front of the test database.

const database = await useTestDatabase({ provider: "postgres" });
const team = await createTeam({ slug: "commit-answer", name: "Commit answer" });
const [fields] = fc.sample(leadFieldsOf(team.id).filter(storableOn("postgres")), 1);
const writeOf = () => ({
  lead: fields!,
  source: { requested: undefined },
  events: { origin: { apiKeyId: null }, emails: false },
  now: new Date(),
});
// statement_timeout stays off: the server must finish the COMMIT the client stopped waiting for.
// Ended by the last test, before the file's database is dropped under its connections.
const impatient = new pg.Pool({ connectionString: database.url, query_timeout: 300, max: 2 });

/** Runs `body` with a deferred trigger on Lead whose function at COMMIT is `plpgsql` (one per inserted lead). */
async function withCommitTrigger<T>(plpgsql: string, body: () => Promise<T>): Promise<T> {
  await db().$executeRawUnsafe(`CREATE FUNCTION "at_commit"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${plpgsql} RETURN NULL; END $$`);
  await db().$executeRawUnsafe(
    `CREATE CONSTRAINT TRIGGER "at_commit" AFTER INSERT ON "Lead" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "at_commit"()`,
  );
  try {
    return await body();
  } finally {
    await db().$executeRawUnsafe(`DROP TRIGGER "at_commit" ON "Lead"`);
    await db().$executeRawUnsafe(`DROP FUNCTION "at_commit"()`);
  }
}

const leadCount = () => db().lead.count({ where: { teamId: team.id } });
const writtenIds = (outcomes: BatchOutcome[]) =>
  outcomes.map((outcome) => {
    assert.ok("written" in outcome, `an outcome failed: ${"error" in outcome ? String(outcome.error) : ""}`);
    return outcome.written.leadId;
  });

test("a COMMIT that commits after the client stopped waiting for its answer: the batch's leads are answered as written, and they exist", async () => {
  const before = await leadCount();
  const outcomes = await withCommitTrigger("PERFORM pg_sleep(0.4);", () => writeLeadsPostgres(impatient, [writeOf(), writeOf()]));
  const ids = writtenIds(outcomes);
  assert.equal(new Set(ids).size, 2);
  assert.equal(await db().lead.count({ where: { id: { in: ids } } }), 2);
  assert.equal(await leadCount(), before + 2);
});

test("a COMMIT that is rolled back after the client stopped waiting: the batch fails with the timeout, nothing stored", async () => {
  const before = await leadCount();
  await assert.rejects(
    withCommitTrigger("PERFORM pg_sleep(0.4); RAISE EXCEPTION 'refused at commit';", () => writeLeadsPostgres(impatient, [writeOf()])),
    /Query read timeout/,
  );
  assert.equal(await leadCount(), before);
});

test("a COMMIT the server refuses in time: the batch fails with the server's error, nothing stored", async () => {
  const before = await leadCount();
  await assert.rejects(
    withCommitTrigger("RAISE EXCEPTION 'refused at commit';", () => writeLeadsPostgres(impatient, [writeOf(), writeOf()])),
    /refused at commit/,
  );
  assert.equal(await leadCount(), before);
});

/** The simple-protocol message node-postgres sends for client.query("COMMIT"). */
const COMMIT_MESSAGE = (() => {
  const text = Buffer.from("COMMIT\0");
  const length = Buffer.alloc(4);
  length.writeInt32BE(4 + text.length);
  return Buffer.concat([Buffer.from("Q"), length, text]);
})();

/**
 * A TCP proxy to the test database. `cutAtNextCommit(forward)`: the next connection to send a
 * COMMIT is cut on the app's side without an answer, the COMMIT first passed on to the server
 * (which then commits) or not (the server sees its client go and rolls back). Every other
 * byte, and every later connection, goes through unchanged.
 */
async function startCuttingProxy(target: URL) {
  let cut: { forward: boolean } | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((app) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [app, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    upstream.on("data", (chunk: Buffer) => app.destroyed || app.write(chunk));
    upstream.on("close", () => app.destroy());
    app.on("close", () => upstream.end());
    app.on("data", (chunk: Buffer) => {
      if (cut && chunk.includes(COMMIT_MESSAGE)) {
        const { forward } = cut;
        cut = null;
        if (forward) upstream.end(chunk);
        else upstream.destroy();
        app.destroy();
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cutAtNextCommit: (forward: boolean) => (cut = { forward }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const proxy = await startCuttingProxy(new URL(database.url));
// The app's pool (newPool: its connections' errors are logged; without it the cut ended this process).
const throughProxy = newPool({ connectionString: proxy.url, max: 2 });

test("a connection cut after the COMMIT reached the server (no ROLLBACK possible): asked through another connection, the leads are answered as written, and they exist", async () => {
  const before = await leadCount();
  proxy.cutAtNextCommit(true);
  const outcomes = await withCommitTrigger("PERFORM pg_sleep(0.2);", () => writeLeadsPostgres(throughProxy, [writeOf(), writeOf()]));
  const ids = writtenIds(outcomes);
  assert.equal(await db().lead.count({ where: { id: { in: ids } } }), 2);
  assert.equal(await leadCount(), before + 2);
});

test("a connection cut before the COMMIT reached the server: the batch fails with the cut, nothing stored; the broken connection left the pool", async () => {
  const before = await leadCount();
  proxy.cutAtNextCommit(false);
  await assert.rejects(writeLeadsPostgres(throughProxy, [writeOf(), writeOf()]), /Connection terminated/);
  assert.equal(await leadCount(), before);
  assert.equal(throughProxy.totalCount - throughProxy.idleCount, 0, "every connection given back");
  writtenIds(await writeLeadsPostgres(throughProxy, [writeOf()]));
  assert.equal(await leadCount(), before + 1, "the pool writes again");
});

test("the pool is whole afterwards: each batch gave its connection back", async () => {
  const outcomes = await writeLeadsPostgres(impatient, [writeOf()]);
  writtenIds(outcomes);
  assert.equal(impatient.totalCount - impatient.idleCount, 0);
  await impatient.end();
  await throughProxy.end();
  await proxy.close();
});
