import assert from "node:assert/strict";
import { beforeEach, mock, test } from "node:test";

// An endpoint's failing-since time when the transaction that wrote a group of its attempts'
// outcomes (lib/jobs/dispatcher.ts) is rolled back and each outcome written again alone: the
// batch's copy of the endpoint is put back with the rollback, so the failure written alone
// still sets the time (the day without a success that disables an endpoint counts from it).

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { Dispatcher } = await import("../jobs/dispatcher");
const { webhookHandler } = await import("./webhook-delivery");
const { jobsOf, lead, receiver, teamWithEndpoint } = await import("./webhook-delivery.fixtures");

// Deliveries write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

beforeEach(() => db().job.deleteMany({}));

test("failures whose group was rolled back still set the endpoint's failing-since time when written alone", async () => {
  const { team, endpoint } = await teamWithEndpoint();
  receiver.status = 500;
  await lead(team, "First Failure");
  await lead(team, "Second Failure");
  // The group writes its records in job id order: the one that cannot be written is the last,
  // so the first has changed the batch's copy of the endpoint when the group is rolled back.
  const [written, unwritable] = (await jobsOf(team.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
  const clock = { now: new Date(Date.now() + 1_000) };
  const real = webhookHandler({ allowPrivate: true });
  // Both attempts end together (after both POSTs), so their outcomes make one group whatever the machine's load.
  let posted = 0;
  let bothPosted!: () => void;
  const together = new Promise<void>((resolve) => (bothPosted = resolve));
  const dispatcher = new Dispatcher({
    handlers: {
      webhook: {
        run: async (claimed, now, lease, memo) => {
          const result = await real.run(claimed, now, lease, memo);
          if (++posted === 2) bothPosted();
          await together;
          if (claimed.id !== unwritable!.id) return result;
          // This one's record cannot be written: the group's transaction is rolled back.
          return {
            ...result,
            record: async () => {
              throw new Error("disk full");
            },
          };
        },
      },
    },
    now: () => clock.now,
    random: () => 0.5,
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  try {
    assert.equal(await dispatcher.runOnce(), 2);
    const states = new Map((await jobsOf(team.id)).map((job) => [job.id, job.state]));
    assert.equal(states.get(written!.id), "pending", "the failure written alone is recorded (a retry later)");
    assert.equal(states.get(unwritable!.id), "running", "the unwritable one is still claimed");
    const stored = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    assert.notEqual(stored.failingSince, null, "the endpoint is failing since the first failure");
  } finally {
    receiver.status = 200;
  }
});
