import { CLI_ACTOR, recordAuditEvent } from "../audit/audit-log";
import { db } from "../db/client";
import { claimJob } from "../jobs/job-claim-store";
import { log } from "../log/logger";
import { deleteQuarantinedIds, expiredQuarantineIds, teamsSpamRetention } from "../spam/quarantine-store";
import { now as clock } from "../time/clock";
import { startSchedule } from "./schedule";

// The quarantine's retention (docs/spam.md "Retention and Empty spam"), one of the
// database's maintenance tasks, on lead retention's pattern (lib/maintenance/lead-retention.ts):
// each team's quarantined submissions received more than Team.spamRetentionDays days ago (30
// unless set) are deleted, at most SPAM_RETENTION_BATCH per team per run (the rest go next
// run), each team's batch one transaction with one audit event carrying the count. Every
// instance ticks; a claimed row (JobClaim) lets one of them in per period.

export const SPAM_RETENTION_JOB = "spam-retention";
/** One run per period across all instances. */
export const SPAM_RETENTION_PERIOD_MS = 60 * 60 * 1000;
/** At most this many quarantined submissions per team per run: one bounded transaction. */
export const SPAM_RETENTION_BATCH = 10_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export type SpamRetentionRun = { teams: number; deleted: number };

/** Deletes every team's quarantined submissions older than its spam retention, as of `now`. */
export async function applySpamRetention(now: Date): Promise<SpamRetentionRun> {
  const run: SpamRetentionRun = { teams: 0, deleted: 0 };
  for (const team of await teamsSpamRetention()) {
    // A submission received exactly that many days ago is kept until the next run.
    const cutoff = new Date(now.getTime() - team.spamRetentionDays * DAY_MS);
    const ids = await expiredQuarantineIds(team.id, cutoff, SPAM_RETENTION_BATCH);
    if (!ids.length) continue;
    const deleted = await db().$transaction(
      async (tx) => {
        const count = await deleteQuarantinedIds(tx, team.id, ids, cutoff);
        await recordAuditEvent(
          {
            teamId: team.id,
            actor: CLI_ACTOR,
            action: "spam.retention_applied",
            details: { count, retentionDays: team.spamRetentionDays },
          },
          tx,
        );
        return count;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    run.teams++;
    run.deleted += deleted;
  }
  return run;
}

/** One run of the job if this instance wins this period's claim; null when another one has it. */
export async function runSpamRetentionJob(now: Date): Promise<SpamRetentionRun | null> {
  if (!(await claimJob(SPAM_RETENTION_JOB, now, SPAM_RETENTION_PERIOD_MS))) return null;
  return applySpamRetention(now);
}

/** Runs the job every `everyMs` (default 5 minutes) at the app's clock (a test server's may be moved); returns the function that stops it. */
export function startSpamRetentionSchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 5 * 60 * 1000,
    clock: options.clock ?? clock,
    run: runSpamRetentionJob,
    report: (run) => {
      if (run?.deleted) log("info", "spam.retention_applied", run);
    },
    failedEvent: "spam.retention_failed",
  });
}
