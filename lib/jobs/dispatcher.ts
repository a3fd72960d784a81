import { randomUUID } from "node:crypto";
import os from "node:os";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { metrics } from "../operations/metrics";
import { db, type Tx } from "../db/client";
import { isDatabaseUnreachable } from "../db/errors";
import { claimJobs, finishAttempt, pruneFinishedJobs, type ClaimedJob, type JobKind, type JobLane, type JobOutcome } from "./job-store";
import { retryDelayMs } from "./retry-schedule";

/** An error's summary beside a job's fields: the error's own `kind` (a driver error's) is `error_kind`, never the job's. */
function jobError(error: unknown) {
  const { kind, ...summary } = summariseError(error);
  return kind ? { ...summary, error_kind: kind } : summary;
}

// Runs the outbox: claims due jobs, hands each to the handler of its kind, and records the
// outcome: delivered, retried later (lib/jobs/retry-schedule.ts), or failed for good. Every
// app process runs one (lib/startup/dispatchers.ts); the claim keeps them apart. Time
// comes from `now` and the jitter from `random`, so tests drive the retry clock.

/**
 * What an attempt's record hands back when it changed something outside the database (what
 * the handler's batch remembers of a row it updated): how to put it back if the transaction
 * is rolled back, so that a record written again finds what the database has.
 */
export type UndoOnRollback = () => void;

/**
 * How an attempt went. `record` writes what the handler keeps of it (a webhook's delivery
 * log row) in the transaction that records the job's outcome, so the two are seen together.
 * That transaction may hold other attempts' outcomes and may be rolled back and each record
 * written again alone: a record that changes anything outside the database returns its undo.
 */
export type AttemptResult = (
  | { ok: true }
  | {
      ok: false;
      error: string;
      retry?: boolean;
      /** The receiver's own "not before" (a 429's Retry-After): the retry waits at least until then. */
      retryAt?: Date;
      /** Not attempted, to be run at this time, the attempt not counted (a chat destination's pacing). */
      deferUntil?: Date;
    }
) & { record?: (tx: Tx) => Promise<UndoOnRollback | void> };

/** Loads shared by the jobs of one claimed batch (e.g. their endpoint, looked up once). */
export type BatchMemo = <T>(key: string, load: () => Promise<T>) => Promise<T>;

function batchMemo(): BatchMemo {
  const loads = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>) => {
    let loaded = loads.get(key) as Promise<T> | undefined;
    if (!loaded) loads.set(key, (loaded = load()));
    return loaded;
  };
}

/** The claim an attempt runs under: a long job extends it as it goes (lib/jobs/job-store.ts extendLease). */
export type JobLease = { workerId: string; leaseMs: number };

export type JobHandler = {
  run(job: ClaimedJob, now: () => Date, lease: JobLease, memo: BatchMemo): Promise<AttemptResult>;
  /** After the last attempt failed (e.g. disable a failing endpoint). */
  exhausted?(job: ClaimedJob, now: Date): Promise<void>;
};

export type DispatcherOptions = {
  handlers: Partial<Record<JobKind, JobHandler>>;
  /** The jobs this dispatcher claims (default: deliveries). */
  lane?: JobLane;
  workerId?: string;
  now?: () => Date;
  random?: () => number;
  leaseMs: number;
  retryBaseMs: number;
  /** Jobs claimed at once (and run concurrently). */
  batchSize?: number;
  /** How often an idle dispatcher looks for due jobs. */
  pollMs?: number;
  /** How long finished deliveries (and the delivery log) are kept; pruned once an hour. */
  retentionMs?: number;
  /** More pruning of the lane's own, run with it once an hour (the imports lane: abandoned drafts). */
  sweep?: (now: Date) => Promise<unknown>;
  /**
   * Work that comes first (the intake): while `busy()`, the dispatcher pauses after each
   * batch so that it runs at most `share` of the time (the pause is capped at maxPauseMs).
   * Deliveries then trail a burst of leads and catch up after it; none is dropped.
   */
  giveWayTo?: { busy: () => boolean; share: number; maxPauseMs: number };
  /** Waits between batches (tests record it); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
};

/** How long to pause after a batch that took `elapsedMs`, so that the dispatcher keeps to `share` of the time. */
export function pauseAfterBatch(elapsedMs: number, giveWayTo: DispatcherOptions["giveWayTo"]): number {
  if (!giveWayTo || !giveWayTo.busy()) return 0;
  const share = Math.min(1, Math.max(0.01, giveWayTo.share));
  return Math.min(giveWayTo.maxPauseMs, Math.max(0, (elapsedMs * (1 - share)) / share));
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The outcome's transaction (the attempt's log row and the job's new state) comes after the
 * POST: if it fails, the job stays claimed and is posted again once its lease runs out, and
 * the POST that happened has no log row. So it waits as long as the app's other transactions
 * do (10 s for a connection, 10 s in all), not Prisma's defaults (2 s and 5 s): with those,
 * a batch of attempts ending together on a loaded machine or a busy pool lost some of them
 * ("Unable to start a transaction in the given time", P2028).
 */
const FINISH_TRANSACTION = { maxWait: 10_000, timeout: 10_000 };

/**
 * How long an attempt's outcome waits for the other attempts still running in this process
 * before it is written without them. Outcomes are written together, one transaction for those
 * that end within this time of each other (a batch to a quick receiver: all of them), so a
 * batch of ten costs one commit rather than ten: on a durable PostgreSQL each commit is a WAL
 * flush that the intake's commits queue behind (docs/performance.md "The dispatcher's commits").
 */
export const OUTCOME_GATHER_MS = 20;

/**
 * The order a group's outcomes are written in: by the row their records update (so two
 * instances' groups never deadlock), then by the attempt's time (so an endpoint's last
 * attempt decides its failing-since time), then by job.
 */
function compareLockOrder(a: PendingOutcome, b: PendingOutcome): number {
  const key = ({ job, now }: PendingOutcome) =>
    `${job.endpointId ?? ""}\u0000${job.chatDestinationId ?? ""}\u0000${now.toISOString()}\u0000${job.id}`;
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An attempt's outcome waiting to be written with the others of its group. */
type PendingOutcome = {
  job: ClaimedJob;
  outcome: JobOutcome;
  now: Date;
  record?: (tx: Tx) => Promise<UndoOnRollback | void>;
  settle: (result: { recorded: boolean } | { error: unknown }) => void;
};

export class Dispatcher {
  readonly workerId: string;
  readonly #options: DispatcherOptions;
  readonly #now: () => Date;
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #stopping = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;
  #prunedAt = 0;
  /** Attempts under way whose outcome is not yet queued: while any is, a queued outcome waits (up to OUTCOME_GATHER_MS) for theirs. */
  #attemptsUnderWay = 0;
  readonly #outcomes: PendingOutcome[] = [];
  #gatherTimer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Claims one batch of due jobs and runs it to the end; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const jobs = await claimJobs({
      workerId: this.workerId,
      now: this.#now(),
      leaseMs: this.#options.leaseMs,
      limit: this.#options.batchSize ?? 10,
      lane: this.#options.lane ?? "deliveries",
    });
    const memo = batchMemo();
    await Promise.all(jobs.map((job) => this.#track(this.#attempt(job, memo))));
    return jobs.length;
  }

  /** Runs until stop(): a batch after another while there is work, else every pollMs or on nudge(). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = (async () => {
      while (!this.#stopping) {
        let claimed = 0;
        const started = performance.now();
        try {
          if (this.#now().getTime() - this.#prunedAt >= PRUNE_EVERY_MS) await this.prune();
          claimed = await this.runOnce();
        } catch (error) {
          log("warn", "jobs.claim_failed", summariseError(error));
        }
        if (this.#stopping) continue;
        if (claimed > 0) {
          const pause = pauseAfterBatch(performance.now() - started, this.#options.giveWayTo);
          if (pause > 0) await (this.#options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())))(pause);
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#options.pollMs ?? 1_000);
          timer.unref();
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = null;
      }
    })();
  }

  /** Runs the sweep, then deletes the deliveries that ended more than retentionMs ago; returns how many. */
  async prune(): Promise<number> {
    const now = this.#now();
    this.#prunedAt = now.getTime();
    try {
      await this.#options.sweep?.(now);
    } catch (error) {
      log("warn", "jobs.sweep_failed", { lane: this.#options.lane ?? "deliveries", ...summariseError(error) });
    }
    if (!this.#options.retentionMs) return 0;
    return pruneFinishedJobs(new Date(now.getTime() - this.#options.retentionMs));
  }

  /** Looks for due jobs now (a lead was just committed in this process). */
  nudge(): void {
    this.#wake?.();
  }

  /**
   * Stops claiming and waits up to `graceMs` for the attempts under way. One still running
   * then keeps its lease and is taken again once the lease runs out: never lost.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    this.nudge();
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all([this.#loop, ...this.#inFlight]), deadline]);
  }

  #track(work: Promise<void>): Promise<void> {
    this.#inFlight.add(work);
    return work.finally(() => this.#inFlight.delete(work));
  }

  /** Runs one claimed job and records how it ended (also for a job claimed elsewhere, e.g. by id). */
  attempt(job: ClaimedJob): Promise<void> {
    return this.#track(this.#attempt(job, batchMemo()));
  }

  /**
   * Records how an attempt ended; false when the claim was lost. The handler's record of it
   * (a webhook's delivery log row) is written in the same transaction, also when the claim
   * was lost: the attempt happened.
   */
  #finish(job: ClaimedJob, outcome: JobOutcome, now: Date, record?: (tx: Tx) => Promise<UndoOnRollback | void>): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#outcomes.push({
        job,
        outcome,
        now,
        record,
        settle: (result) => ("error" in result ? reject(result.error) : resolve(result.recorded)),
      });
      this.#scheduleWrite();
    });
  }

  /** Writes the queued outcomes now when no other attempt is under way, else once they are or OUTCOME_GATHER_MS have passed. */
  #scheduleWrite(): void {
    if (this.#writing || !this.#outcomes.length) return;
    if (this.#attemptsUnderWay > 0) {
      this.#gatherTimer ??= setTimeout(() => this.#writeQueued(), OUTCOME_GATHER_MS);
      return;
    }
    this.#writeQueued();
  }

  /** Writes every queued outcome, group after group (outcomes queued while one is written make the next). */
  #writeQueued(): void {
    if (this.#gatherTimer) clearTimeout(this.#gatherTimer);
    this.#gatherTimer = null;
    if (this.#writing) return;
    this.#writing = (async () => {
      while (this.#outcomes.length) await this.#writeGroup(this.#outcomes.splice(0));
    })().finally(() => {
      this.#writing = null;
      this.#scheduleWrite();
    });
  }

  /**
   * One transaction for the group: each handler's record, then the job's new state. When it
   * fails, each outcome is written alone, so one attempt whose record cannot be written costs
   * no other its record (a deadlock or a statement timeout included); but when nothing reaches
   * the database (a transaction that could not start in time, a lost connection) the whole
   * group fails as one attempt's outcome did before grouping: its jobs stay claimed and are
   * taken again after their lease, rather than queueing every later outcome behind ten more
   * waits. Written alone, the first such failure settles the rest of the group with it.
   */
  async #writeGroup(group: PendingOutcome[]): Promise<void> {
    try {
      const recorded = await this.#writeTogether(group);
      group.forEach((item, i) => item.settle({ recorded: recorded[i]! }));
    } catch (error) {
      if (group.length === 1 || isDatabaseUnreachable(error)) {
        for (const item of group) item.settle({ error });
        return;
      }
      for (const [i, item] of group.entries()) {
        try {
          item.settle({ recorded: (await this.#writeTogether([item]))[0]! });
        } catch (alone) {
          item.settle({ error: alone });
          if (!isDatabaseUnreachable(alone)) continue;
          for (const rest of group.slice(i + 1)) rest.settle({ error: alone });
          return;
        }
      }
    }
  }

  async #writeTogether(group: PendingOutcome[]): Promise<boolean[]> {
    const [only] = group;
    if (group.length === 1 && !only!.record) return [await finishAttempt(only!.job, this.workerId, only!.outcome, only!.now)];
    // The rows the records update (an endpoint's or a chat destination's failing-since time)
    // are taken in one order by every instance's groups, so two groups never deadlock.
    const ordered = group.map((item, i) => ({ item, i })).sort((a, b) => compareLockOrder(a.item, b.item));
    const undo: UndoOnRollback[] = [];
    try {
      return await db().$transaction(async (tx) => {
        const recorded: boolean[] = new Array(group.length);
        for (const { item, i } of ordered) {
          const undoRecord = await item.record?.(tx);
          if (undoRecord) undo.push(undoRecord);
          recorded[i] = await finishAttempt(item.job, this.workerId, item.outcome, item.now, tx);
        }
        return recorded;
      }, FINISH_TRANSACTION);
    } catch (error) {
      for (const undoRecord of undo.reverse()) undoRecord();
      throw error;
    }
  }

  async #attempt(job: ClaimedJob, memo: BatchMemo): Promise<void> {
    const handler = this.#options.handlers[job.kind];
    const stopTimer = metrics().deliveryDuration.startTimer({ kind: job.kind });
    let result: AttemptResult;
    this.#attemptsUnderWay++;
    try {
      result = handler
        ? await handler.run(job, this.#now, { workerId: this.workerId, leaseMs: this.#options.leaseMs }, memo)
        : { ok: false, error: `No handler for ${job.kind}`, retry: false };
    } catch (error) {
      log("error", "jobs.handler_failed", { job_id: job.id, kind: job.kind, ...jobError(error) });
      result = { ok: false, error: "Internal error" };
    } finally {
      // From here to the outcome's queueing nothing awaits: no other outcome is written in between.
      this.#attemptsUnderWay--;
    }
    stopTimer();
    const now = this.#now();
    let outcome: JobOutcome;
    if (result.ok) outcome = { state: "delivered" };
    else if (result.deferUntil) outcome = { state: "pending", runAt: result.deferUntil, error: result.error, uncounted: true };
    else if (result.retry === false) outcome = { state: "cancelled", error: result.error };
    else if (job.attempts >= job.maxAttempts) outcome = { state: "failed", error: result.error };
    else {
      const delay = retryDelayMs(job.attempts, this.#options.retryBaseMs, (this.#options.random ?? Math.random)());
      const runAt = Math.max(now.getTime() + delay, result.retryAt?.getTime() ?? 0);
      outcome = { state: "pending", runAt: new Date(runAt), error: result.error };
    }
    let recorded: boolean;
    try {
      recorded = await this.#finish(job, outcome, now, result.record);
    } catch (error) {
      // Nothing of the attempt was written: the job stays claimed and is taken again once its lease runs out.
      log("error", "jobs.finish_failed", { job_id: job.id, kind: job.kind, attempt: job.attempts, ...jobError(error) });
      return;
    }
    metrics().deliveries.inc({ kind: job.kind, outcome: outcome.state === "pending" ? "retry" : outcome.state });
    if (!recorded) {
      log("warn", "jobs.claim_lost", { job_id: job.id, kind: job.kind, attempt: job.attempts });
      return;
    }
    if (outcome.state === "failed") {
      log("warn", "jobs.failed", { job_id: job.id, kind: job.kind, attempts: job.attempts });
      await handler?.exhausted?.(job, now);
    }
  }
}
