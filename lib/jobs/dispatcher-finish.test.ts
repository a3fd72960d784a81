import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

// The transaction that records how an attempt ended (the handler's log row and the job's new
// state) comes after the attempt's POST: when it gives up, the POST that happened has no log
// row and the job is posted again once its lease runs out. Here the database is busy for 3 s
// when the attempt ends (another transaction holds the only connection: one pool connection
// on PostgreSQL, the file's lock on SQLite), longer than Prisma's default 2 s wait for a
// transaction: the outcome is still recorded, once.

process.env.DB_POOL_SIZE = "1";
process.env.DB_CONNECT_TIMEOUT_MS = "30000";
const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { createTeam } = await import("../teams/team-store");
const { Dispatcher } = await import("./dispatcher");
const { insertJobs } = await import("./job-store");

test("an attempt that ends while the database is busy for 3 s is recorded with its log row", async () => {
  const team = await createTeam({ slug: "busy-finish", name: "Busy" });
  await insertJobs([
    { teamId: team.id, kind: "email", eventId: "evt-busy", eventType: "lead.created", payload: "{}", maxAttempts: 3, runAt: new Date() },
  ]);
  let busy: Promise<void> | null = null;
  let posted = 0;
  const dispatcher = new Dispatcher({
    handlers: {
      email: {
        async run() {
          posted++;
          let holding!: () => void;
          const held = new Promise<void>((resolve) => (holding = resolve));
          busy = db().$transaction(
            async (tx) => {
              await tx.team.findFirst({ select: { id: true } });
              holding();
              await sleep(3_000);
            },
            { maxWait: 10_000, timeout: 30_000 },
          );
          await held;
          return {
            ok: true,
            record: async (tx) => void (await tx.team.update({ where: { id: team.id }, data: { name: "Busy (recorded)" } })),
          };
        },
      },
    },
    leaseMs: 60_000,
    retryBaseMs: 1_000,
  });
  assert.equal(await dispatcher.runOnce(), 1);
  await busy;
  const job = await db().job.findFirstOrThrow({ where: { teamId: team.id } });
  assert.deepEqual([job.state, job.attempts, job.lockedBy], ["delivered", 1, null], "the outcome was recorded");
  assert.equal((await db().team.findUniqueOrThrow({ where: { id: team.id } })).name, "Busy (recorded)", "with the handler's record");
  assert.equal(await dispatcher.runOnce(), 0, "nothing left to post again");
  assert.equal(posted, 1);
});
