import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import { env } from "../env";

// Every database access for the outbox (the Job table) lives here: writing deliveries in
// the transaction that causes them, claiming due ones, and recording how each attempt
// ended. A claim is a lease (lockedBy, lockedUntil): every write that ends an attempt is
// fenced by the claim, so a worker whose lease ran out cannot overwrite a newer claim.

export type JobKind = "webhook" | "email" | "import" | "chat";
/**
 * Which jobs a dispatcher claims: deliveries (webhooks and emails, short and many) or
 * imports (lib/imports/: long, one at a time), so a running import never holds up a delivery.
 */
export type JobLane = "deliveries" | "imports";
export type JobState = "pending" | "running" | "delivered" | "failed" | "cancelled";

export type NewJob = {
  teamId: string;
  kind: JobKind;
  endpointId?: string | null;
  /** A chat message's destination (lib/chat/). */
  chatDestinationId?: string | null;
  /** The lead the message is about (its timeline lists it). */
  leadId?: string | null;
  eventId: string;
  eventType: string;
  payload: string;
  maxAttempts: number;
  runAt: Date;
};

export type ClaimedJob = {
  id: string;
  teamId: string;
  kind: JobKind;
  endpointId: string | null;
  /** A chat message's destination (the row its outcome updates). */
  chatDestinationId?: string | null;
  eventId: string;
  eventType: string;
  payload: string;
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
};

/** What a claim hands the dispatcher of a job. */
const CLAIMED_JOB_SELECT = {
  id: true,
  teamId: true,
  kind: true,
  endpointId: true,
  chatDestinationId: true,
  eventId: true,
  eventType: true,
  payload: true,
  attempts: true,
  maxAttempts: true,
} as const;

export function newJobId(): string {
  return `job_${randomUUID().replaceAll("-", "")}`;
}

/** Writes deliveries; inside `tx` they commit with the change that caused them. */
export async function insertJobs(jobs: NewJob[], tx?: Tx): Promise<void> {
  if (!jobs.length) return;
  await (tx ?? db()).job.createMany({
    data: jobs.map((job) => ({
      ...job,
      id: newJobId(),
      endpointId: job.endpointId ?? null,
      chatDestinationId: job.chatDestinationId ?? null,
      leadId: job.leadId ?? null,
    })),
  });
}

/**
 * Claims up to `limit` due jobs for `workerId` until now + leaseMs: pending ones whose
 * time has come, and running ones whose lease has run out (their worker died). Each
 * claim counts as an attempt. PostgreSQL: one statement with FOR UPDATE SKIP LOCKED, so
 * concurrent claimers on any number of instances take disjoint rows. SQLite: one
 * process; the IMMEDIATE transaction (lib/db/sqlite-adapter.ts) serialises claims.
 */
export async function claimJobs(options: {
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
  lane?: JobLane;
}): Promise<ClaimedJob[]> {
  const { workerId, now, limit } = options;
  const until = new Date(now.getTime() + options.leaseMs);
  const imports = options.lane === "imports";
  if (env().DATABASE_PROVIDER === "postgres") {
    const rows = await db().$queryRaw<ClaimedJob[]>`
      UPDATE "Job" SET "state" = 'running', "lockedBy" = ${workerId}, "lockedUntil" = ${until}::timestamp(3),
        "attempts" = "attempts" + 1
      WHERE "id" IN (
        SELECT "id" FROM "Job"
        WHERE (("state" = 'pending' AND "runAt" <= ${now}::timestamp(3))
           OR ("state" = 'running' AND "lockedUntil" < ${now}::timestamp(3)))
          AND ("kind" = 'import') = ${imports}
        ORDER BY "runAt" LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING "id", "teamId", "kind", "endpointId", "chatDestinationId", "eventId", "eventType", "payload", "attempts", "maxAttempts"`;
    return rows.map((row) => ({ ...row, attempts: Number(row.attempts), maxAttempts: Number(row.maxAttempts) }));
  }
  const dueNow = {
    OR: [
      { state: "pending", runAt: { lte: now } },
      { state: "running", lockedUntil: { lt: now } },
    ],
    kind: imports ? "import" : { not: "import" },
  };
  // Nothing due, the usual case of an idle process: answered by a plain read, so the poll
  // takes no write lock. (A write transaction every second kept another process's
  // `prisma migrate deploy` on the same file from ever getting its lock: see e2e/api/durability.spec.ts.)
  if (!(await db().job.findFirst({ where: dueNow, select: { id: true } }))) return [];
  // A store's own transaction: the claim is one data operation on the Job rows (read the due ones, mark them claimed).
  return db().$transaction(async (tx) => {
    const due = await tx.job.findMany({
      where: dueNow,
      orderBy: { runAt: "asc" },
      take: limit,
      select: { id: true },
    });
    if (!due.length) return [];
    const ids = due.map((job) => job.id);
    await tx.job.updateMany({
      where: { id: { in: ids } },
      data: { state: "running", lockedBy: workerId, lockedUntil: until, attempts: { increment: 1 } },
    });
    const rows = await tx.job.findMany({
      where: { id: { in: ids } },
      select: CLAIMED_JOB_SELECT,
    });
    return rows.map((row) => ({ ...row, kind: row.kind as JobKind }));
  });
}

export type JobOutcome =
  | { state: "delivered" }
  | { state: "cancelled"; error: string }
  | { state: "failed"; error: string }
  | { state: "pending"; runAt: Date; error: string; uncounted?: boolean };

/**
 * Extends this worker's claim of a running job to `until` (a long job's heartbeat); false
 * when the claim was lost. Inside `tx` it fences that transaction's writes: they commit
 * only while the claim holds.
 */
export async function extendLease(job: { id: string; attempts: number }, workerId: string, until: Date, tx?: Tx): Promise<boolean> {
  const { count } = await (tx ?? db()).job.updateMany({
    where: { id: job.id, state: "running", lockedBy: workerId, attempts: job.attempts },
    data: { lockedUntil: until },
  });
  return count === 1;
}

/**
 * Claims one job by id for `workerId` when it is pending, or running under a lease that ran
 * out (its worker died): the operator CLI runs or resumes an import itself. Null when
 * another worker holds it.
 */
export async function claimJobById(options: { id: string; workerId: string; now: Date; leaseMs: number }): Promise<ClaimedJob | null> {
  const { count } = await db().job.updateMany({
    where: { id: options.id, OR: [{ state: "pending" }, { state: "running", lockedUntil: { lt: options.now } }] },
    data: {
      state: "running",
      lockedBy: options.workerId,
      lockedUntil: new Date(options.now.getTime() + options.leaseMs),
      attempts: { increment: 1 },
    },
  });
  if (count !== 1) return null;
  const row = await db().job.findUnique({
    where: { id: options.id },
    select: CLAIMED_JOB_SELECT,
  });
  return row ? { ...row, kind: row.kind as JobKind } : null;
}

/**
 * Ends an attempt; false when the claim was lost (the lease ran out and another worker took
 * it). Inside `tx` (the dispatcher's, which writes the attempt's log row with it) it commits
 * with that row.
 */
export async function finishAttempt(
  job: { id: string; attempts: number },
  workerId: string,
  outcome: JobOutcome,
  now: Date,
  tx?: Tx,
): Promise<boolean> {
  const ended = outcome.state === "pending" ? { runAt: outcome.runAt, finishedAt: null } : { finishedAt: now };
  // An attempt put off before it was made (a chat destination's pacing) is not counted.
  const uncounted = outcome.state === "pending" && outcome.uncounted ? { attempts: { decrement: 1 } } : {};
  const { count } = await (tx ?? db()).job.updateMany({
    where: { id: job.id, state: "running", lockedBy: workerId, attempts: job.attempts },
    data: {
      state: outcome.state,
      lockedBy: null,
      lockedUntil: null,
      lastError: "error" in outcome ? outcome.error.slice(0, 500) : null,
      ...ended,
      ...uncounted,
    },
  });
  return count === 1;
}

/** Gives claimed jobs that were not started back (a draining shutdown); the attempt is not counted. */
export async function releaseJobs(jobs: { id: string; attempts: number }[], workerId: string): Promise<void> {
  for (const job of jobs) {
    await db().job.updateMany({
      where: { id: job.id, state: "running", lockedBy: workerId, attempts: job.attempts },
      data: { state: "pending", lockedBy: null, lockedUntil: null, attempts: { decrement: 1 } },
    });
  }
}

/** Schedules a failed or cancelled delivery again, from attempt 1 (the delivery log's "Resend"). */
export async function requeueJob(options: { id: string; teamId: string; maxAttempts: number; now: Date }): Promise<boolean> {
  const { count } = await db().job.updateMany({
    where: { id: options.id, teamId: options.teamId, state: { in: ["failed", "cancelled"] } },
    data: { state: "pending", attempts: 0, maxAttempts: options.maxAttempts, runAt: options.now, finishedAt: null, lastError: null },
  });
  return count === 1;
}

export function findJob(id: string) {
  return db().job.findUnique({ where: { id } });
}

/** Deletes deliveries that ended before `before`, with their delivery log rows (cascade). */
export async function pruneFinishedJobs(before: Date): Promise<number> {
  const { count } = await db().job.deleteMany({
    where: { state: { in: ["delivered", "failed", "cancelled"] }, finishedAt: { lt: before } },
  });
  return count;
}

/** A webhook delivery or an email about one lead, as its timeline shows it. */
export type LeadMessage = {
  id: string;
  kind: "webhook" | "email";
  eventType: string;
  /** A webhook's endpoint host (never its whole URL: a path may hold a token); null for an email or a deleted endpoint. */
  endpointHost: string | null;
  /** An email's recipient (a user id); null for a webhook. */
  userId: string | null;
  state: JobState;
  attempts: number;
  createdAt: Date;
  finishedAt: Date | null;
};

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

const recipientOf = (payload: string): string | null => {
  try {
    const userId = (JSON.parse(payload) as { userId?: unknown }).userId;
    return typeof userId === "string" ? userId : null;
  } catch {
    return null;
  }
};

/** The newest `take` messages about the lead (index [leadId, createdAt]), and how many it has in all. */
export async function findLeadMessages(options: {
  teamId: string;
  leadId: string;
  take: number;
}): Promise<{ newest: LeadMessage[]; count: number }> {
  const where = { leadId: options.leadId, teamId: options.teamId, kind: { in: ["webhook", "email"] } };
  const rows = await db().job.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.take,
    select: {
      id: true,
      kind: true,
      eventType: true,
      state: true,
      attempts: true,
      createdAt: true,
      finishedAt: true,
      endpoint: { select: { url: true } },
    },
  });
  // An email's body is small and names its recipient; a webhook's (the whole lead) is not read.
  const emailIds = rows.filter((row) => row.kind === "email").map((row) => row.id);
  const emails = emailIds.length ? await db().job.findMany({ where: { id: { in: emailIds } }, select: { id: true, payload: true } }) : [];
  const recipients = new Map(emails.map((row) => [row.id, recipientOf(row.payload)]));
  const newest = rows.map((row) => ({
    id: row.id,
    kind: row.kind as LeadMessage["kind"],
    eventType: row.eventType,
    endpointHost: row.endpoint ? hostOf(row.endpoint.url) : null,
    userId: recipients.get(row.id) ?? null,
    state: row.state as JobState,
    attempts: row.attempts,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  }));
  const count = newest.length < options.take ? newest.length : await db().job.count({ where });
  return { newest, count };
}
