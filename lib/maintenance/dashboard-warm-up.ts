import { claimJob } from "../jobs/job-claim-store";
import { log } from "../log/logger";
import { ensureRollup, splitRange, teamsWithLeads } from "../dashboard/dashboard-rollup";
import { DAY_MS, dayStart } from "../dashboard/overview-sql";
import { now as clock } from "../time/clock";
import { startSchedule } from "./schedule";

// The dashboard rollup's warm-up (docs/attribution.md "Reading a range"), one of the database's
// maintenance tasks: the settled days that the longest preset range reads (the last 90 days and
// the 90 before, its comparison) of every team with leads are brought up to date in the background, so the first view of Leads → Overview after
// an upgrade, an import or midnight reads stored days instead of computing them while a member
// waits (tens of seconds at a million leads). Every instance ticks; a claimed row (JobClaim)
// lets one of them in per period. A day already up to date costs one lookup.

export const DASHBOARD_WARM_UP_JOB = "dashboard-warm-up";
/** One run per period across all instances. */
export const DASHBOARD_WARM_UP_PERIOD_MS = 60 * 60 * 1000;
/** What Leads → Overview's longest preset reads: the last 90 days, today included, and the previous 90. */
export const DASHBOARD_WARM_UP_DAYS = 2 * 90;

export type DashboardWarmUpRun = { teams: number };

/** Brings every team's settled days of the last DASHBOARD_WARM_UP_DAYS days (today included), as of `now`, up to date. */
export async function warmUpDashboards(now: Date): Promise<DashboardWarmUpRun> {
  const range = { from: new Date(dayStart(now).getTime() - (DASHBOARD_WARM_UP_DAYS - 1) * DAY_MS), to: now };
  const { settled } = splitRange(range, now);
  if (!settled) return { teams: 0 };
  const teams = await teamsWithLeads();
  for (const teamId of teams) await ensureRollup(teamId, settled.from, settled.to);
  return { teams: teams.length };
}

/** One run of the job if this instance wins this period's claim; null when another one has it. */
export async function runDashboardWarmUpJob(now: Date): Promise<DashboardWarmUpRun | null> {
  if (!(await claimJob(DASHBOARD_WARM_UP_JOB, now, DASHBOARD_WARM_UP_PERIOD_MS))) return null;
  return warmUpDashboards(now);
}

/** Runs the job every `everyMs` (default 5 minutes) at the app's clock; returns the function that stops it. */
export function startDashboardWarmUpSchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 5 * 60 * 1000,
    clock: options.clock ?? clock,
    run: runDashboardWarmUpJob,
    report: (run) => {
      if (run?.teams) log("info", "dashboard.warmed_up", run);
    },
    failedEvent: "dashboard.warm_up_failed",
  });
}
