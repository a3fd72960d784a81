import { db } from "../db/client";
import { deleteHeld, expiredHeld } from "../consent/held-submission-store";
import { logHeldDropped } from "../consent/held-submissions";
import { claimJob } from "../jobs/job-claim-store";
import { log } from "../log/logger";
import { now as clock } from "../time/clock";
import { startSchedule } from "./schedule";

// The expiry of submissions held until confirmed (docs/consent.md "Create the lead only once
// confirmed"), on spam retention's pattern (spam-retention.ts): every instance ticks, a claimed
// row (JobClaim) lets one of them in per period. A held submission whose link expired
// unconfirmed is dropped, and its channel's log says so (a web form's request log: 410 and
// why, no address, no content): the only way a held submission leaves without a lead, by
// design. One whose lead was written (its use spent) but whose row stayed (a failure after the
// lead's commit) goes silently: its lead exists. At most HELD_EXPIRY_BATCH a run, one
// transaction; the rest go next run.

export const HELD_EXPIRY_JOB = "held-submission-expiry";
/** One run per period across all instances. */
export const HELD_EXPIRY_PERIOD_MS = 10 * 60 * 1000;
export const HELD_EXPIRY_BATCH = 1_000;

export type HeldExpiryRun = { dropped: number; confirmed: number };

/** Drops the held submissions whose link expired by `now`. */
export async function dropExpiredHeld(now: Date): Promise<HeldExpiryRun> {
  const rows = await expiredHeld(now, HELD_EXPIRY_BATCH);
  if (!rows.length) return { dropped: 0, confirmed: 0 };
  const dropped = await db().$transaction(async (tx) => {
    // Only those still there: a confirmation may have taken one since the read.
    const gone = new Set((await deleteHeld(tx, { ids: rows.map((row) => row.id) })).map((row) => row.id));
    const unconfirmed = rows.filter((row) => gone.has(row.id) && !row.spent);
    await logHeldDropped(tx, unconfirmed, "expired");
    return unconfirmed.length;
  });
  return { dropped, confirmed: rows.length - dropped };
}

/** One run of the job if this instance wins this period's claim; null when another one has it. */
export async function runHeldExpiryJob(now: Date): Promise<HeldExpiryRun | null> {
  if (!(await claimJob(HELD_EXPIRY_JOB, now, HELD_EXPIRY_PERIOD_MS))) return null;
  return dropExpiredHeld(now);
}

/** Runs the job every `everyMs` (default a minute) at the app's clock; returns the function that stops it. */
export function startHeldExpirySchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 60 * 1000,
    clock: options.clock ?? clock,
    run: runHeldExpiryJob,
    report: (run) => {
      if (run?.dropped || run?.confirmed) log("info", "consent.held_expired", run);
    },
    failedEvent: "consent.held_expiry_failed",
  });
}
