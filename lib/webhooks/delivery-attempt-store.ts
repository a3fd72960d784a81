import { db, type Tx } from "../db/client";

// The delivery log of webhook endpoints: each attempt, the endpoint's failing-since time it
// keeps, the disabling of an endpoint that has failed for a day, and the log as listed.

export type AttemptRecord = {
  jobId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  responseExcerpt: string | null;
};

const EXCERPT_CHARS = 500;

/**
 * Logs an attempt inside `tx` (the transaction that ends the delivery's attempt, lib/jobs/dispatcher.ts
 * with job-store.ts finishAttempt) and keeps the endpoint's failing-since time: set by a failure, cleared by a
 * success. `endpoint` is what the delivery read of it (shared by its batch): its
 * failingSince says whether a write is needed, and follows the write; the returned function
 * puts it back when the transaction is rolled back (lib/jobs/dispatcher.ts UndoOnRollback), so
 * that the record written again finds what the database has and makes the write.
 */
export async function recordAttempt(tx: Tx, attempt: AttemptRecord, endpoint: { failingSince: Date | null }): Promise<() => void> {
  const before = endpoint.failingSince;
  const undo = () => void (endpoint.failingSince = before);
  await tx.webhookAttempt.create({
    data: {
      ...attempt,
      error: attempt.error?.slice(0, EXCERPT_CHARS) ?? null,
      responseExcerpt: attempt.responseExcerpt?.slice(0, EXCERPT_CHARS) ?? null,
    },
  });
  if (attempt.ok && endpoint.failingSince !== null) {
    await tx.webhookEndpoint.updateMany({ where: { id: attempt.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
    endpoint.failingSince = null;
  } else if (!attempt.ok && endpoint.failingSince === null) {
    await tx.webhookEndpoint.updateMany({
      where: { id: attempt.endpointId, failingSince: null },
      data: { failingSince: attempt.startedAt },
    });
    endpoint.failingSince = attempt.startedAt;
  }
  return undo;
}

/** How long an endpoint fails without a single success before a failed delivery disables it. */
export const DISABLE_AFTER_FAILING_MS = 24 * 60 * 60 * 1000;

/**
 * After a delivery failed for good: an endpoint that has not succeeded for a day (the
 * retry schedule's length) is disabled and shown as failing. A failed test event alone
 * (one attempt) never disables it.
 */
export async function disableIfStillFailing(endpointId: string, now: Date): Promise<boolean> {
  const { count } = await db().webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true, failingSince: { lte: new Date(now.getTime() - DISABLE_AFTER_FAILING_MS) } },
    data: { enabled: false, disabledReason: "failing", disabledAt: now },
  });
  return count === 1;
}

export type DeliveryLogRow = Omit<AttemptRecord, "endpointId"> & {
  id: number;
  /** The delivery's state now: "failed" ones can be resent. */
  jobState: string;
};

export const DELIVERY_LOG_PAGE_SIZE = 50;

/** An endpoint's most recent attempts, newest first. */
export async function listAttempts(options: { endpointId: string; teamId: string; take?: number }): Promise<DeliveryLogRow[]> {
  const rows = await db().webhookAttempt.findMany({
    where: { endpointId: options.endpointId, endpoint: { teamId: options.teamId } },
    orderBy: { id: "desc" },
    take: options.take ?? DELIVERY_LOG_PAGE_SIZE,
    include: { job: { select: { state: true } } },
  });
  return rows.map(({ job, endpointId: _endpoint, ...row }) => ({ ...row, jobState: job.state }));
}
