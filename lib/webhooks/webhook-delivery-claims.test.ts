import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";

// Who sends a webhook delivery, and when (lib/webhooks/webhook-delivery.ts, lib/jobs/
// dispatcher.ts and job-store.ts): a private target refused without
// WEBHOOK_ALLOW_PRIVATE_TARGETS, a dead worker's claim taken again after its lease, an
// attempt's log row committed with its outcome, two dispatchers that never send a delivery
// twice, and (PostgreSQL) claims that skip locked rows.

const { useTestDatabase } = await import("../../test/support/test-database");
const database = await useTestDatabase();
const { db } = await import("../db/client");
const { Dispatcher } = await import("../jobs/dispatcher");
const { webhookHandler } = await import("./webhook-delivery");
const { listAttempts } = await import("./delivery-attempt-store");
const { dispatcher, jobsOf, lead, receiver, teamWithEndpoint } = await import("./webhook-delivery.fixtures");

// Deliveries and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("delivery", () => {
  // Dispatchers claim every due job of the database: each test starts with none left over.
  beforeEach(() => db().job.deleteMany({}));

  test("without WEBHOOK_ALLOW_PRIVATE_TARGETS a loopback URL is refused, and nothing is sent", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Private Target");
    const before = receiver.deliveries.length;
    const { dispatcher: d } = dispatcher({ allowPrivate: false });
    assert.equal(await d.runOnce(), 1);
    assert.equal(receiver.deliveries.length, before);
    const [attempt] = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.equal(attempt!.statusCode, null);
    assert.match(attempt!.error!, /^Refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a private or reserved address/);
  });

  test("a claim whose worker died is taken again after its lease; the dead worker's late answer is ignored", async () => {
    const { team } = await teamWithEndpoint();
    await lead(team, "Lease Expired");
    const [job] = await jobsOf(team.id);
    const clock = { now: new Date(Date.now() + 1_000) };
    const { claimJobs, finishAttempt } = await import("../jobs/job-store");
    const [claimed] = await claimJobs({ workerId: "dead", now: clock.now, leaseMs: 60_000, limit: 10 });
    assert.equal(claimed!.id, job!.id);
    const { dispatcher: d } = dispatcher({ workerId: "alive", clock });
    assert.equal(await d.runOnce(), 0, "leased to the dead worker");
    clock.now = new Date(clock.now.getTime() + 60_001);
    assert.equal(await d.runOnce(), 1);
    const row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.attempts], ["delivered", 2]);
    assert.equal(await finishAttempt(claimed!, "dead", { state: "failed", error: "late" }, clock.now), false);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
  });

  test("an attempt's log row commits with the delivery's outcome: when the row cannot be written, the delivery stays claimed and goes out again after its lease", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    receiver.status = 200;
    await lead(team, "Log Row Lost");
    const [job] = await jobsOf(team.id);
    const clock = { now: new Date(Date.now() + 1_000) };
    const real = webhookHandler({ allowPrivate: true });
    const failing = new Dispatcher({
      handlers: {
        webhook: {
          run: async (claimed, now, lease, memo) => {
            const result = await real.run(claimed, now, lease, memo);
            return {
              ...result,
              record: async (tx) => {
                await result.record!(tx);
                throw new Error("disk full");
              },
            };
          },
        },
      },
      workerId: "failing",
      now: () => clock.now,
      random: () => 0.5,
      leaseMs: 60_000,
      retryBaseMs: 30_000,
    });
    assert.equal(await failing.runOnce(), 1);
    let row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.lockedBy], ["running", "failing"], "neither finished nor logged: still claimed");
    assert.deepEqual(await listAttempts({ endpointId: endpoint.id, teamId: team.id }), []);
    clock.now = new Date(clock.now.getTime() + 60_001);
    const { dispatcher: d } = dispatcher({ clock });
    assert.equal(await d.runOnce(), 1);
    row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.attempts], ["delivered", 2]);
    const attempts = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.ok]),
      [[2, true]],
    );
  });

  test("two dispatchers on one database never send the same delivery twice", async () => {
    const { team } = await teamWithEndpoint();
    receiver.status = 200;
    const count = 40;
    for (let i = 0; i < count; i++) await lead(team, `Concurrent ${i}`);
    const events = new Set((await jobsOf(team.id)).map((job) => job.eventId));
    const before = receiver.deliveries.length;
    const clock = { now: new Date(Date.now() + 1_000) };
    const workers = ["one", "two"].map((workerId) => dispatcher({ workerId, clock }).dispatcher);
    // Both claim in small batches at the same time until nothing is left.
    await Promise.all(
      workers.map(async (worker) => {
        while ((await worker.runOnce()) > 0);
      }),
    );
    const received = receiver.deliveries.slice(before).filter((delivery) => events.has(delivery.id));
    assert.equal(received.length, count);
    assert.equal(new Set(received.map((delivery) => delivery.id)).size, count);
    const claimedBy = await db().webhookAttempt.count({ where: { endpoint: { teamId: team.id } } });
    assert.equal(claimedBy, count);
  });

  // SQLite has one process and no row locks: this behaviour exists on PostgreSQL only.
  if (database.provider === "postgres")
    test("PostgreSQL: a claim skips the rows another instance holds locked instead of waiting for them", async () => {
      const { team } = await teamWithEndpoint();
      for (let i = 0; i < 3; i++) await lead(team, `Locked ${i}`);
      const [held, ...free] = await jobsOf(team.id);
      const { default: pg } = await import("pg");
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query(`SELECT "id" FROM "Job" WHERE "id" = $1 FOR UPDATE`, [held!.id]);
        const { claimJobs } = await import("../jobs/job-store");
        const claim = claimJobs({ workerId: "skipper", now: new Date(Date.now() + 1_000), leaseMs: 60_000, limit: 10 });
        // A claim that waited for the lock would still be waiting when the guard fires.
        const guard = new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 5_000).unref());
        const claimed = await Promise.race([claim, guard]);
        assert.notEqual(claimed, "blocked", "the claim waited for the locked row");
        assert.deepEqual(new Set((claimed as { id: string }[]).map((job) => job.id)), new Set(free.map((job) => job.id)));
      } finally {
        await other.query("ROLLBACK");
        await other.end();
      }
    });
});
