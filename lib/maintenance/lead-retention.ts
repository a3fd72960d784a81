import { CLI_ACTOR, type AuditActor } from "../audit/audit-log";
import { log } from "../log/logger";
import { startSchedule } from "./schedule";
import { deleteAudited } from "../leads/delete-leads";
import { claimJob } from "../jobs/job-claim-store";
import { teamsWithRetention } from "../teams/team-store";
import { expiredLeadIds } from "../leads/lead-store";
import { pruneConnectionLogs } from "./connection-log-pruning";

// Lead retention (docs/leads.md "Retention"), one of the database's maintenance tasks
// (lib/maintenance/): a team may have its leads older than N days deleted.
// `npm start` runs the job every few minutes; a claimed row (JobClaim, one conditional
// update) lets one instance in per period however many run, on SQLite and PostgreSQL alike.
// Each team's run is one transaction with one audit event carrying the count.

export const RETENTION_JOB = "lead-retention";
/** One run per period across all instances. */
export const RETENTION_PERIOD_MS = 60 * 60 * 1000;
/** At most this many leads per team per run: one bounded transaction (the rest go next run). */
export const RETENTION_BATCH = 10_000;

/** The job's own audit actor: no user, no address. */
export const RETENTION_ACTOR: AuditActor = { ...CLI_ACTOR };

export type RetentionRun = { teams: number; deleted: number };

/** Deletes every team's leads older than its retention, as of `now`. */
export async function applyRetention(now: Date): Promise<RetentionRun> {
  const run: RetentionRun = { teams: 0, deleted: 0 };
  for (const team of await teamsWithRetention()) {
    const cutoff = new Date(now.getTime() - team.retentionDays * 24 * 60 * 60 * 1000);
    const ids = await expiredLeadIds(team.id, cutoff, RETENTION_BATCH);
    if (!ids.length) continue;
    const deleted = await deleteAudited(team.id, ids, {
      actor: RETENTION_ACTOR,
      action: "lead.retention_applied",
      details: { retentionDays: team.retentionDays },
    });
    run.teams++;
    run.deleted += deleted.length;
  }
  return run;
}

/** One run of the job if this instance wins this period's claim; null when another one has it. */
export async function runRetentionJob(now: Date): Promise<RetentionRun | null> {
  if (!(await claimJob(RETENTION_JOB, now, RETENTION_PERIOD_MS))) return null;
  const run = await applyRetention(now);
  // The connections' settled log rows age out in the same hourly claim.
  const pruned = await pruneConnectionLogs(now);
  if (pruned) log("info", "connections.log_pruned", { rows: pruned });
  return run;
}

/** Runs the job every `everyMs` (default 5 minutes) with `clock`'s time; returns the function that stops it. */
export function startRetentionSchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 5 * 60 * 1000,
    clock: options.clock ?? (() => new Date()),
    run: runRetentionJob,
    report: (run) => {
      if (run?.deleted) log("info", "retention.applied", run);
    },
    failedEvent: "retention.failed",
  });
}
