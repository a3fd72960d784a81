import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";

// Every database access for periodic-job claims (JobClaim) lives here.

/**
 * Claims the named periodic job until `now + periodMs`, for this caller only: one
 * conditional update on the job's row decides between instances (once the claimed time
 * has passed, the next period is claimable). True when this caller won.
 */
export async function claimJob(name: string, now: Date, periodMs: number): Promise<boolean> {
  try {
    await db().jobClaim.create({ data: { name, claimedUntil: new Date(0) }, select: { name: true } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const { count } = await db().jobClaim.updateMany({
    where: { name, claimedUntil: { lte: now } },
    data: { claimedUntil: new Date(now.getTime() + periodMs), lastRunAt: now },
  });
  return count === 1;
}
