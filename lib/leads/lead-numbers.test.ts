import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, test } from "node:test";
import pg from "pg";
import { backendsWaitingOnLock, untilOneWaitsOnLock } from "../../test/support/lock-waits";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { formatLeadId, parseLeadId } from "./lead-id";
import { LEAD_NUMBER_BARRIER_SQL, lastLeadNumber, nextLeadNumberSql, settledLeadNumber } from "./lead-number-store";
import { writeLead } from "./lead-writer";
import { writeLeadsPostgres } from "./lead-writer-postgres";
import type { BatchOutcome } from "./lead-write";
import { actorOf, makeTeam } from "./lead-ownership.fixtures";
import { driver } from "../db/driver";
import { saveRule } from "../routing/assignment-rules";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";
import fc from "fast-check";

// Lead numbers on PostgreSQL (lib/leads/lead-number-store.ts, docs/api.md "Lead ids"): a
// sequence, not a counter row every create locks. Unique across processes and restarts;
// increasing in one process's order; across transactions a higher number may commit first,
// and settledLeadNumber waits for the transactions that took lower ones.

const database = await useTestDatabase({ provider: "postgres" });
const team = await createTeam({ slug: "numbers", name: "Numbers" });
const source = await resolveLeadSource(team.id);
const [fields] = fc.sample(leadFieldsOf(team.id).filter(storableOn("postgres")), 1);
const write = () =>
  writeLead({ lead: fields!, source: { chosen: source }, events: { origin: { apiKeyId: null }, emails: false }, now: new Date() });

const LIB = path.resolve(import.meta.dirname, "..");

/**
 * A fresh process on this database (an instance of the app: its own pool and group commit)
 * that writes `count` leads at once when told "go" on its standard input, and prints their ids.
 */
function writerProcess(count: number): { ready: Promise<void>; go: () => void; ids: Promise<string[]> } {
  const script = `
    const fc = (await import("fast-check")).default;
    const { writeLead } = await import(${JSON.stringify(path.join(LIB, "leads/lead-writer.ts"))});
    const { leadFieldsOf, storableOn } = await import(${JSON.stringify(path.join(LIB, "leads/lead-writer.fixtures.ts"))});
    const { db } = await import(${JSON.stringify(path.join(LIB, "db/client.ts"))});
    const [fields] = fc.sample(leadFieldsOf(${JSON.stringify(team.id)}).filter(storableOn("postgres")), 1);
    const source = ${JSON.stringify(source)};
    await db().$queryRawUnsafe("SELECT 1");
    process.stdout.write("ready\\n");
    await new Promise((resolve) => process.stdin.once("data", resolve));
    const ids = await Promise.all(Array.from({ length: ${count} }, () =>
      writeLead({ lead: fields, source: { chosen: source }, events: { origin: { apiKeyId: null }, emails: false }, now: new Date() })
        .then((written) => written.leadId)));
    process.stdout.write(JSON.stringify(ids) + "\\n");
    await db().$disconnect();
    process.exit(0);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let readied!: () => void;
  const ready = new Promise<void>((resolve) => (readied = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith("ready\n")) readied();
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const ids = new Promise<string[]>((resolve, reject) =>
    child.on("exit", (code) => {
      const line = out.split("\n")[1];
      if (code === 0 && line) resolve(JSON.parse(line) as string[]);
      else reject(new Error(`writer exited with ${code}: ${err.slice(-2000)}`));
    }),
  );
  ready.catch(() => undefined);
  return { ready: Promise.race([ready, ids.then(() => undefined)]), go: () => child.stdin.end("go\n"), ids };
}

/** Two instances writing `each` leads at the same moment; their ids. */
async function twoInstances(each: number): Promise<string[]> {
  const writers = [writerProcess(each), writerProcess(each)];
  await Promise.all(writers.map((writer) => writer.ready));
  for (const writer of writers) writer.go();
  return (await Promise.all(writers.map((writer) => writer.ids))).flat();
}

describe("lead numbers on PostgreSQL: a sequence, unique across instances and restarts", () => {
  test("200 concurrent writers in two processes get 200 distinct ids, each stored once under its own number; two new processes (a restart) go on above them", async () => {
    const before = await lastLeadNumber(db());
    const first = await twoInstances(100);
    assert.equal(first.length, 200);
    assert.equal(new Set(first).size, 200, "no id issued twice");
    const stored = await db().lead.findMany({ where: { id: { in: first } }, select: { id: true, seq: true } });
    assert.equal(stored.length, 200, "every acknowledged lead is stored");
    for (const { id, seq } of stored) assert.equal(id, formatLeadId(seq));
    const numbers = first.map((id) => parseLeadId(id)!);
    assert.ok(Math.min(...numbers) > before);
    // Nothing failed, so nothing left a gap: the 200 numbers after the last one.
    assert.deepEqual(
      [...numbers].sort((a, b) => a - b),
      Array.from({ length: 200 }, (_, i) => before + 1 + i),
    );

    // A restart: every process of the first round has exited; two new ones take numbers.
    const second = await twoInstances(100);
    assert.equal(new Set([...first, ...second]).size, 400, "no id issued twice across the restart");
    assert.ok(Math.min(...second.map((id) => parseLeadId(id)!)) > Math.max(...numbers), "the numbers go on above the last round's");
    assert.equal(await lastLeadNumber(db()), before + 400);
  });

  test("the ordering rule: in one process's order numbers increase; across transactions a higher number may commit first, and settledLeadNumber waits for the lower one", async () => {
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(parseLeadId((await write()).leadId)!);
    assert.deepEqual(
      sequential,
      [...sequential].sort((a, b) => a - b),
    );

    // A writer that took a number (as the lead writer does: the barrier, then nextval) and has not committed.
    const slow = new pg.Client({ connectionString: database.url });
    await slow.connect();
    try {
      await slow.query(`BEGIN; ${LEAD_NUMBER_BARRIER_SQL}`);
      const { rows } = await slow.query<{ value: number }>(`SELECT ${nextLeadNumberSql} AS "value"`);
      const lower = rows[0]!.value;
      // With the counter row this create would wait for the open transaction; with the sequence it commits at once, higher.
      const higher = parseLeadId((await write()).leadId)!;
      assert.ok(higher > lower, `${higher} > ${lower}`);
      assert.ok(await db().lead.findUnique({ where: { id: formatLeadId(higher) } }), "the higher number is committed first");

      let settled: number | null = null;
      const settling = settledLeadNumber(db()).then((value) => (settled = value));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(settled, null, "settledLeadNumber waits while a lower number is still being written");
      await slow.query("COMMIT");
      assert.ok((await settling) >= higher);
    } finally {
      await slow.end();
    }
  });

  test("no counter row orders the batches any more: two batches that turn two teams' round robins in opposite orders queue, never deadlock", async () => {
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    const teams = await Promise.all([makeTeam(), makeTeam()]);
    for (const { team, owner, admin } of teams) {
      const saved = await saveRule({
        teamId: team.id,
        input: { name: "Rule", enabled: true, conditions: [], mode: "round_robin", fallbackUserId: null, userIds: [owner.id, admin.id] },
        actor: actorOf(owner),
      });
      assert.ok(saved.ok);
    }
    const [x, y] = teams.map(({ team }) => team.id) as [string, string];
    const leadOf = (teamId: string) => ({
      lead: { ...fields!, teamId },
      source: { requested: undefined },
      events: { origin: { apiKeyId: null }, emails: false },
      now: new Date(),
    });
    // Each batch turns one team's rule, then the other's; without the rules locked first thing
    // (batchLocksSql), the two hold one rule each and wait for the other's: PostgreSQL ends
    // one with a deadlock error after a second.
    for (let round = 0; round < 10; round++) {
      const outcomes: BatchOutcome[] = (
        await Promise.all([
          writeLeadsPostgres(d.pool, [leadOf(x), leadOf(y), leadOf(x), leadOf(y)]),
          writeLeadsPostgres(d.pool, [leadOf(y), leadOf(x), leadOf(y), leadOf(x)]),
        ])
      ).flat();
      const errors = outcomes.flatMap((outcome) => ("error" in outcome ? [String(outcome.error)] : []));
      assert.deepEqual(errors, [], `round ${round}`);
    }
    const owned = await db().lead.groupBy({ by: ["teamId", "ownerId"], where: { teamId: { in: [x, y] } }, _count: true });
    // Each rule alternated between its two members: 40 leads a team, 20 each.
    assert.deepEqual(
      owned.map((row) => row._count),
      [20, 20, 20, 20],
    );
  });
});

describe("the lead writers' order lock (batchLocksSql): only a batch that joins a lead made before it takes it", () => {
  const ORDER_LOCK = `SELECT 1 FROM "Counter" WHERE "name" = 'lead' FOR UPDATE`;
  const addWrite = (email: string) => ({
    lead: { ...fields!, teamId: team.id, email, phone: null, mobileNo: null },
    source: { chosen: source },
    events: { origin: { apiKeyId: null }, emails: false },
    now: new Date(),
    repeat: { since: new Date(0) },
  });
  const written = (outcome: BatchOutcome | undefined) => {
    assert.ok(outcome && "written" in outcome, `a written lead, not ${String(outcome && "error" in outcome ? outcome.error : outcome)}`);
    return outcome.written;
  };
  /** The batch's outcomes, failing the test as soon as a backend of this database waits on a lock before the batch ends. */
  const neverWaiting = async (pool: pg.Pool, batch: Promise<BatchOutcome[]>, message: string) => {
    let ended = false;
    const outcomes = batch.finally(() => (ended = true));
    while (!ended) {
      if ((await backendsWaitingOnLock(pool)) > 0) assert.fail(message);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return outcomes;
  };

  test("while another transaction holds it, new people on 'add' are written; a returning person's batch waits for it, then joins", async () => {
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    const first = written((await writeLeadsPostgres(d.pool, [addWrite("returning@example.com")]))[0]);
    assert.equal(first.added, false);
    const holder = await d.pool.connect();
    try {
      await holder.query(`BEGIN; ${ORDER_LOCK}`);
      // Before this change every "add" batch took the order lock and waited here.
      const batch = writeLeadsPostgres(d.pool, [addWrite("new-1@example.com"), addWrite("new-2@example.com")]);
      const fresh = await neverWaiting(d.pool, batch, "a batch of new people waited for the order lock");
      assert.deepEqual(
        fresh.map((outcome) => written(outcome).added),
        [false, false],
      );
      // The returning person's batch joins an existing lead: it takes the order lock, and waits for the holder.
      let joinedYet = false;
      const returning = writeLeadsPostgres(d.pool, [addWrite("returning@example.com")]).finally(() => (joinedYet = true));
      await untilOneWaitsOnLock(d.pool, () => joinedYet, "the returning person's batch did not wait for the order lock");
      await holder.query("COMMIT");
      const joined = written((await returning)[0]);
      assert.deepEqual([joined.added, joined.leadId], [true, first.leadId]);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      holder.release();
    }
  });

  test("one new person twice in one batch: the second submission joins the lead the first made, without the order lock", async () => {
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    const holder = await d.pool.connect();
    try {
      await holder.query(`BEGIN; ${ORDER_LOCK}`);
      const batch = writeLeadsPostgres(d.pool, [addWrite("twice@example.com"), addWrite("TWICE@example.com")]);
      const [one, two] = (await neverWaiting(d.pool, batch, "the batch waited for the order lock")).map(written);
      assert.deepEqual([one!.added, two!.added, two!.leadId], [false, true, one!.leadId]);
      assert.equal(await db().lead.count({ where: { teamId: team.id, emailKey: "twice@example.com" } }), 1);
      assert.equal(await db().leadSubmission.count({ where: { leadId: one!.leadId } }), 2);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      holder.release();
    }
  });
});
