import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

// The outcomes of attempts that end together are written in one transaction (lib/jobs/
// dispatcher.ts, OUTCOME_GATHER_MS): a batch to a quick receiver costs one commit, not one per
// delivery. A group never costs one of its attempts its record: when the group's transaction
// fails, each outcome is written alone; and an attempt still under way holds the others back
// for at most the gather time.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { createTeam } = await import("../teams/team-store");
const { Dispatcher, OUTCOME_GATHER_MS } = await import("./dispatcher");
const { insertJobs } = await import("./job-store");
const { createEndpoint } = await import("../webhooks/webhook-endpoint-changes");
type Tx = import("../db/client").Tx;
type JobHandler = import("./dispatcher").JobHandler;

let teams = 0;
async function teamWithJobs(count: number) {
  const team = await createTeam({ slug: `outcome-groups-${++teams}`, name: "Outcome groups" });
  const runAt = new Date();
  await insertJobs(
    Array.from({ length: count }, (_, i) => ({
      teamId: team.id,
      kind: "email" as const,
      eventId: `evt-${teams}-${i}`,
      eventType: "lead.created",
      payload: JSON.stringify({ n: i }),
      maxAttempts: 3,
      runAt,
    })),
  );
  return team;
}

const dispatcherFor = (email: JobHandler, now?: () => Date) =>
  new Dispatcher({ handlers: { email }, leaseMs: 60_000, retryBaseMs: 1_000, batchSize: 10, now });
const states = async (teamId: string) =>
  (await db().job.findMany({ where: { teamId }, orderBy: { eventId: "asc" }, select: { eventId: true, state: true } })).map(
    (job) => `${job.eventId}:${job.state}`,
  );
/** Each job's record: an audit row in the outcome's transaction, so what committed can be counted. */
const recordOf = (teamId: string, eventId: string) => async (tx: Tx) =>
  void (await tx.auditEvent.create({ data: { teamId, action: "test.recorded", targetId: eventId, via: "cli" } }));
const recordedIds = async (teamId: string) =>
  (await db().auditEvent.findMany({ where: { teamId, action: "test.recorded" }, select: { targetId: true } }))
    .map((row) => row.targetId)
    .sort();

beforeEach(() => db().job.deleteMany({}));

test("a batch of ten attempts that end together is written in one transaction, each with its record", async () => {
  const team = await teamWithJobs(10);
  const transactions = new Set<Tx>();
  const dispatcher = dispatcherFor({
    async run(job) {
      return {
        ok: true,
        record: async (tx) => {
          transactions.add(tx);
          await recordOf(team.id, job.eventId)(tx);
        },
      };
    },
  });
  assert.equal(await dispatcher.runOnce(), 10);
  assert.equal(transactions.size, 1, "one transaction for the batch's ten outcomes");
  assert.ok((await states(team.id)).every((s) => s.endsWith(":delivered")));
  assert.equal((await recordedIds(team.id)).length, 10);
});

test("a group's records are written in one order (the row they update, then the job): two instances' groups never deadlock", async () => {
  const team = await createTeam({ slug: `outcome-groups-${++teams}`, name: "Outcome groups" });
  const actor = { userId: null, ip: null, via: "cli" as const };
  const endpoints = await Promise.all(
    ["a", "b"].map((name) =>
      createEndpoint({ teamId: team.id, url: `https://${name}.example.test/hook`, description: null, events: ["lead.created"], actor }),
    ),
  );
  // Ten jobs, alternately to the two endpoints: the claim returns them in an order of its own
  // (job id order on SQLite) that interleaves the endpoints; the group writes every job of the
  // first endpoint, then the second's.
  const runAt = new Date();
  await insertJobs(
    Array.from({ length: 10 }, (_, i) => ({
      teamId: team.id,
      kind: "email" as const,
      endpointId: endpoints[i % 2]!.id,
      eventId: `evt-${teams}-${i}`,
      eventType: "lead.created",
      payload: "{}",
      maxAttempts: 3,
      runAt,
    })),
  );
  const order: { endpointId: string | null; id: string }[] = [];
  // One clock reading for every attempt, so the attempts' times tie and the job id decides.
  const at = new Date(runAt.getTime() + 1_000);
  const dispatcher = new Dispatcher({
    handlers: {
      email: {
        async run(job) {
          return { ok: true, record: async () => void order.push({ endpointId: job.endpointId, id: job.id }) };
        },
      },
    },
    now: () => at,
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    batchSize: 10,
  });
  assert.equal(await dispatcher.runOnce(), 10);
  const key = (entry: (typeof order)[number]) => `${entry.endpointId} ${entry.id}`;
  assert.deepEqual(order.map(key), order.map(key).sort(), "by endpoint, then (at one time) by job id");
  assert.equal(new Set(order.map((entry) => entry.endpointId)).size, 2);
  assert.ok((await states(team.id)).every((s) => s.endsWith(":delivered")));
});

test("within one row, a group's records are written in the order of their attempts' times (the last decides an endpoint's failing-since time)", async () => {
  const team = await teamWithJobs(6);
  const order: string[] = [];
  // A clock that runs backwards: the attempts that end first get the latest times, so the
  // order of their ends and the order of their times disagree.
  let clock = Date.now() + 60_000;
  const dispatcher = new Dispatcher({
    handlers: {
      email: {
        async run(job) {
          return { ok: true, record: async () => void order.push(job.id) };
        },
      },
    },
    now: () => new Date((clock -= 1)),
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    batchSize: 10,
  });
  assert.equal(await dispatcher.runOnce(), 6);
  const jobs = await db().job.findMany({ where: { teamId: team.id }, select: { id: true, finishedAt: true } });
  const byTime = jobs.sort((a, b) => a.finishedAt!.getTime() - b.finishedAt!.getTime() || (a.id < b.id ? -1 : 1)).map((job) => job.id);
  assert.equal(new Set(jobs.map((job) => job.finishedAt!.getTime())).size, 6, "six different times");
  assert.deepEqual(order, byTime);
});

test("when one record of a group cannot be written, the others are written alone and that job stays claimed", async () => {
  const team = await teamWithJobs(4);
  // A group writes in the order of its attempts' times, then of job ids: with one time for all
  // four (a clock that stands still; the machine's clock can move a millisecond between two
  // attempts' ends on a loaded machine) the unwritable record is the last one, so all four are
  // tried in the group's transaction before it fails.
  const jobs = await db().job.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" }, select: { eventId: true } });
  const unwritable = jobs.at(-1)!.eventId;
  const firstTries = new Map<string, Tx>();
  const at = new Date(Date.now() + 1_000);
  const dispatcher = dispatcherFor(
    {
      async run(job) {
        return {
          ok: true,
          record: async (tx) => {
            if (!firstTries.has(job.eventId)) firstTries.set(job.eventId, tx);
            await recordOf(team.id, job.eventId)(tx);
            if (job.eventId === unwritable) throw new Error("disk full");
          },
        };
      },
    },
    () => at,
  );
  assert.equal(await dispatcher.runOnce(), 4);
  assert.equal(firstTries.size, 4);
  assert.equal(new Set(firstTries.values()).size, 1, "the four were first tried together");
  assert.deepEqual(
    await states(team.id),
    jobs.map((job) => `${job.eventId}:${job.eventId === unwritable ? "running" : "delivered"}`).sort(),
  );
  assert.deepEqual(
    await recordedIds(team.id),
    jobs
      .map((job) => job.eventId)
      .filter((id) => id !== unwritable)
      .sort(),
    "the failed record rolled back alone",
  );
});

test("when nothing reaches the database, the group's jobs stay claimed and no outcome is tried again alone", async () => {
  const team = await teamWithJobs(4);
  const tries = new Map<string, number>();
  const dispatcher = dispatcherFor({
    async run(job) {
      return {
        ok: true,
        record: async (tx) => {
          tries.set(job.eventId, (tries.get(job.eventId) ?? 0) + 1);
          await recordOf(team.id, job.eventId)(tx);
          // What Prisma reports when no transaction could start in time (lib/db/errors.ts).
          throw Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" });
        },
      };
    },
  });
  await dispatcher.runOnce();
  assert.equal(tries.size, 1, "the group stopped at its first record");
  assert.deepEqual([...tries.values()], [1], "and it was not tried again alone");
  assert.ok(
    (await states(team.id)).every((s) => s.endsWith(":running")),
    "all four stay claimed, taken again after their lease",
  );
  assert.deepEqual(await recordedIds(team.id), []);
});

test("a deadlock in the group's transaction is one statement's failure: each outcome is written alone", async () => {
  const team = await teamWithJobs(4);
  let deadlocked = false;
  const dispatcher = dispatcherFor({
    async run(job) {
      return {
        ok: true,
        record: async (tx) => {
          await recordOf(team.id, job.eventId)(tx);
          if (deadlocked) return;
          deadlocked = true;
          throw Object.assign(new Error("Transaction failed due to a write conflict or a deadlock. Please retry your transaction"), {
            code: "P2034",
          });
        },
      };
    },
  });
  assert.equal(await dispatcher.runOnce(), 4);
  assert.ok(
    (await states(team.id)).every((s) => s.endsWith(":delivered")),
    "all four written, none left claimed",
  );
  assert.equal((await recordedIds(team.id)).length, 4);
});

test("an attempt still under way holds the others' outcomes back for the gather time only", async () => {
  const team = await teamWithJobs(2);
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const dispatcher = dispatcherFor({
    async run(job) {
      if (job.eventId.endsWith("-1")) await slow;
      return { ok: true, record: recordOf(team.id, job.eventId) };
    },
  });
  const batch = dispatcher.runOnce();
  // Well past the gather time (and a transaction on a loaded machine), the slow one still under way.
  const deadline = Date.now() + 10_000;
  while ((await recordedIds(team.id)).length === 0 && Date.now() < deadline) await sleep(OUTCOME_GATHER_MS);
  assert.deepEqual(
    await states(team.id),
    [`evt-${teams}-0:delivered`, `evt-${teams}-1:running`],
    "the quick one is written without the slow one",
  );
  release();
  assert.equal(await batch, 2);
  assert.deepEqual(await states(team.id), [`evt-${teams}-0:delivered`, `evt-${teams}-1:delivered`]);
  assert.equal((await recordedIds(team.id)).length, 2);
});
