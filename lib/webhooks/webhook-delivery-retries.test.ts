import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";

// Delivering a webhook (lib/webhooks/webhook-delivery.ts through lib/jobs/dispatcher.ts): a
// signed POST the standardwebhooks verifier accepts, logged; retries on the backoff schedule;
// the endpoint disabled after the last failed attempt (not after a failed test event); and
// finished deliveries pruned after the retention period. Refusals, leases and concurrent
// dispatchers: webhook-delivery-claims.test.ts.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { MAX_ATTEMPTS, retryDelayMs } = await import("../jobs/retry-schedule");
const { findEndpoint } = await import("./webhook-endpoint-store");
const { listAttempts } = await import("./delivery-attempt-store");
const { actor, dispatcher, jobsOf, lead, receiver, teamWithEndpoint } = await import("./webhook-delivery.fixtures");

// Deliveries and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("delivery", () => {
  // Dispatchers claim every due job of the database: each test starts with none left over.
  beforeEach(() => db().job.deleteMany({}));

  test("a signed POST that the standardwebhooks verifier accepts, logged with status and excerpt", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    receiver.status = 200;
    await lead(team, "Grace Hopper");
    const [job] = await jobsOf(team.id);
    const before = receiver.deliveries.length;
    const { dispatcher: d } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    const received = receiver.deliveries.slice(before);
    assert.equal(received.length, 1);
    assert.equal(received[0]!.verified, true);
    assert.equal(received[0]!.id, job!.eventId);
    assert.equal(received[0]!.body, job!.payload);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
    const [attempt] = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual([attempt!.ok, attempt!.statusCode, attempt!.attempt, attempt!.responseExcerpt], [true, 200, 1, "ok"]);
    assert.equal(await d.runOnce(), 0, "a delivered job is not sent again");
  });

  test("a failing receiver is retried on the backoff schedule until it answers 2xx", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Retry Me");
    const [job] = await jobsOf(team.id);
    const { dispatcher: d, clock } = dispatcher();
    receiver.status = 503;
    assert.equal(await d.runOnce(), 1);
    let row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.equal(row.state, "pending");
    assert.equal(row.runAt.getTime() - clock.now.getTime(), retryDelayMs(1, 30_000, 0.5));
    assert.equal(await d.runOnce(), 0, "not due before its time");
    clock.now = row.runAt;
    assert.equal(await d.runOnce(), 1);
    row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.equal(row.runAt.getTime() - clock.now.getTime(), retryDelayMs(2, 30_000, 0.5));
    receiver.status = 200;
    clock.now = row.runAt;
    assert.equal(await d.runOnce(), 1);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
    const attempts = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual(attempts.map((a) => [a.attempt, a.statusCode, a.ok]).reverse(), [
      [1, 503, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    assert.equal((await findEndpoint({ id: endpoint.id, teamId: team.id }))!.failingSince, null, "a success clears failing");
  });

  test("after the last attempt fails the delivery has failed and the endpoint is disabled as failing", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Never Delivered");
    const [job] = await jobsOf(team.id);
    const { dispatcher: d, clock } = dispatcher();
    receiver.status = 500;
    const start = clock.now.getTime();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      assert.equal(await d.runOnce(), 1, `attempt ${attempt}`);
      const row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
      if (attempt < MAX_ATTEMPTS) clock.now = row.runAt;
    }
    const hours = (clock.now.getTime() - start) / 3_600_000;
    assert.ok(hours > 20 && hours < 34, `the schedule spans about a day (${hours.toFixed(1)} h)`);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "failed");
    const view = await findEndpoint({ id: endpoint.id, teamId: team.id });
    assert.deepEqual([view!.enabled, view!.disabledReason], [false, "failing"]);
    receiver.status = 200;
  });

  test("a failed test event (one attempt) does not disable the endpoint", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const { sendTestEvent } = await import("./webhook-admin");
    assert.equal(await sendTestEvent({ endpointId: endpoint.id, team, actor }), true);
    receiver.status = 500;
    const { dispatcher: d } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    receiver.status = 200;
    const [job] = await jobsOf(team.id);
    assert.deepEqual([job!.state, job!.eventType], ["failed", "webhook.test"]);
    const view = await findEndpoint({ id: endpoint.id, teamId: team.id });
    assert.deepEqual([view!.enabled, view!.failingSince !== null], [true, true]);
  });

  test("finished deliveries and their log rows are pruned after the retention period; pending ones stay", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Old Delivery");
    const { dispatcher: d, clock } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    await lead(team, "Still Pending");
    clock.now = new Date(clock.now.getTime() + 30 * 24 * 60 * 60 * 1000 - 60_000);
    assert.equal(await d.prune(), 0, "not yet 30 days old");
    clock.now = new Date(clock.now.getTime() + 2 * 60_000);
    assert.equal(await d.prune(), 1);
    assert.deepEqual(
      (await jobsOf(team.id)).map((job) => job.state),
      ["pending"],
    );
    assert.deepEqual(await listAttempts({ endpointId: endpoint.id, teamId: team.id }), []);
  });
});
