import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import {
  eventLoopUtilization,
  intakeBusy,
  intakeNeedsTheProcess,
  leadWriterUtilization,
  noteLeadWriterSlots,
  SATURATED,
  trackIntake,
} from "../operations/intake-activity";
import { createTeam } from "../teams/team-store";
import { Dispatcher, pauseAfterBatch } from "./dispatcher";
import { insertJobs } from "./job-store";

// The dispatcher gives way to the intake: while leads arrive it pauses after each batch so
// that deliveries take at most a share of the time; they trail a burst, none is dropped.

await useTestDatabase();

describe("pauseAfterBatch", () => {
  const busy = { busy: () => true, share: 0.2, maxPauseMs: 1_000 };
  test("idle intake: no pause", () => {
    assert.equal(pauseAfterBatch(50, { ...busy, busy: () => false }), 0);
    assert.equal(pauseAfterBatch(50, undefined), 0);
  });
  test("busy intake: the pause keeps the dispatcher to its share, capped", () => {
    assert.equal(pauseAfterBatch(50, busy), 200); // 50 ms of 250: a fifth
    assert.equal(pauseAfterBatch(10, { ...busy, share: 0.5 }), 10);
    assert.equal(pauseAfterBatch(5_000, busy), 1_000);
  });
});

describe("intakeBusy", () => {
  test("true while a request runs and just after it; false once the intake is quiet", async () => {
    let during = false;
    await trackIntake(async () => {
      during = intakeBusy();
    });
    assert.equal(during, true);
    assert.equal(intakeBusy(), true, "a request that just ended: the next of a burst is on its way");
    assert.equal(intakeBusy(performance.now() + 1_000), false);
  });
});

describe("intakeNeedsTheProcess", () => {
  const idleFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const blockFor = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  test("a request in flight on an idle event loop leaves room: deliveries keep their speed; a saturated loop makes them give way", async () => {
    let release!: () => void;
    const request = trackIntake(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      eventLoopUtilization();
      await idleFor(300);
      assert.equal(intakeBusy(), true);
      assert.ok(eventLoopUtilization() < SATURATED, "waiting is not load");
      assert.equal(intakeNeedsTheProcess(), false);
      blockFor(300);
      assert.ok(eventLoopUtilization() >= SATURATED, "300 ms of running code in a 300 ms window");
      assert.equal(intakeNeedsTheProcess(), true);
    } finally {
      release();
      await request;
    }
    assert.equal(intakeNeedsTheProcess(performance.now() + 1_000), false, "no intake: nothing to give way to");
  });

  test("on an idle event loop, a lead writer with every commit slot taken (the database is the bound) makes them give way; a free slot gives the room back", async () => {
    let release!: () => void;
    const request = trackIntake(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      eventLoopUtilization();
      leadWriterUtilization();
      await idleFor(300);
      assert.equal(leadWriterUtilization(), 0, "no commit under way");
      assert.equal(intakeNeedsTheProcess(), false);
      noteLeadWriterSlots(true);
      await idleFor(300);
      assert.ok(eventLoopUtilization() < SATURATED, "waiting for the database is not load on the loop");
      assert.ok(leadWriterUtilization() >= SATURATED, "every slot taken for the whole window");
      assert.equal(intakeNeedsTheProcess(), true);
      noteLeadWriterSlots(false);
      await idleFor(300);
      leadWriterUtilization();
      await idleFor(300);
      assert.equal(leadWriterUtilization(), 0);
      assert.equal(intakeNeedsTheProcess(), false, "a slot free again: deliveries at full speed");
    } finally {
      noteLeadWriterSlots(false);
      release();
      await request;
    }
  });
});

describe("the dispatcher under a busy intake", () => {
  async function run(busy: boolean) {
    const team = await createTeam({ slug: `give-way-${busy}`, name: "Give way" });
    const now = new Date();
    await insertJobs(
      Array.from({ length: 3 }, (_, i) => ({
        teamId: team.id,
        kind: "email" as const,
        eventId: `evt-${busy}-${i}`,
        eventType: "lead.created",
        payload: "{}",
        maxAttempts: 1,
        runAt: now,
      })),
    );
    const pauses: number[] = [];
    let sent = 0;
    const dispatcher = new Dispatcher({
      handlers: {
        email: { run: async () => (++sent, { ok: true }) },
        webhook: { run: async () => ({ ok: false, error: "not in this test", retry: false }) },
      },
      leaseMs: 60_000,
      retryBaseMs: 30_000,
      batchSize: 1,
      pollMs: 10,
      giveWayTo: { busy: () => busy, share: 0.2, maxPauseMs: 1_000 },
      sleep: async (ms) => void pauses.push(ms),
    });
    dispatcher.start();
    while (sent < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await dispatcher.stop(1_000);
    return { pauses, sent };
  }

  test("busy: a pause after every batch, every job still delivered", async () => {
    const { pauses, sent } = await run(true);
    assert.equal(sent, 3);
    assert.ok(pauses.length >= 2, `a pause after each batch, got ${pauses.length}`);
    assert.ok(pauses.every((ms) => ms > 0 && ms <= 1_000));
  });

  test("idle: no pause between batches", async () => {
    const { pauses, sent } = await run(false);
    assert.equal(sent, 3);
    assert.deepEqual(pauses, []);
  });
});
