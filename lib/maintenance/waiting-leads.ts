import { CLI_ACTOR } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { env } from "../env";
import { claimJob } from "../jobs/job-claim-store";
import { wakeDeliveries } from "../jobs/wake";
import { writeLeadAssignment } from "../leads/lead-ownership";
import { lockOwnershipRows } from "../leads/lead-ownership-store";
import { log } from "../log/logger";
import { startSchedule } from "./schedule";
import { isOnDuty } from "../routing/availability";
import { pickTurn, type Routing } from "../routing/route-lead";
import { loadRouting } from "../routing/routing-snapshot";
import { lockMemberRoles } from "../teams/team-store";
import { now as clock } from "../time/clock";

// Leads waiting for the next member on duty (docs/routing.md "Assignment rules"): a new lead
// whose rule had nobody on duty, and whose fallback is "the next member on duty, later", came
// in unassigned with a WaitingLead row (lib/routing/intake-assignment.ts). One of the
// database's periodic tasks, like the New-lead reminder: every instance ticks, one a minute
// runs it (JobClaim "waiting-leads"). For each waiting lead, oldest first, in batches: the
// team's routing read afresh; the rule gone or disabled, or the lead deleted or no longer
// unassigned, drops the row; a member of the rule on duty now gets the lead, by the rule's
// round-robin turn (taken on the rule's row), with the writes of an owner's assignment
// (audited as lead.assigned by the system, reason "routing_waited"; lead.updated; the
// assignment email), and the row goes, all in one transaction per lead; nobody on duty: it
// keeps waiting.

export const WAITING_JOB = "waiting-leads";
/** One run per period across all instances. */
export const WAITING_PERIOD_MS = 60 * 1000;
/** Waiting leads read at a time. */
export const WAITING_BATCH = 200;
/** Batches per run: a long queue is worked through over the next runs. */
const MAX_BATCHES = 20;
const REASON = "routing_waited";

export type WaitingRun = { assigned: number; dropped: number; waiting: number };

type WaitingRow = { leadId: string; teamId: string; ruleId: string; since: Date };
type Outcome = "assigned" | "dropped" | "waiting" | "stale";

/** The next waiting leads after (`since`, `leadId`), oldest first. */
function waitingAfter(cursor: { since: Date; leadId: string } | null): Promise<WaitingRow[]> {
  return db().waitingLead.findMany({
    where: cursor ? { OR: [{ since: { gt: cursor.since } }, { since: cursor.since, leadId: { gt: cursor.leadId } }] } : undefined,
    orderBy: [{ since: "asc" }, { leadId: "asc" }],
    take: WAITING_BATCH,
    select: { leadId: true, teamId: true, ruleId: true, since: true },
  });
}

/** The rule's turn and settings as `tx` sees them, its row locked (PostgreSQL: FOR UPDATE; SQLite: the write lock). */
async function lockRule(tx: Tx, teamId: string, ruleId: string) {
  if (env().DATABASE_PROVIDER === "postgres") {
    await tx.$queryRaw`SELECT 1 FROM "AssignmentRule" WHERE "id" = ${ruleId} AND "teamId" = ${teamId} FOR UPDATE`;
  }
  return tx.assignmentRule.findFirst({ where: { id: ruleId, teamId }, select: { turn: true, enabled: true, mode: true } });
}

async function routingVersion(tx: Tx, teamId: string): Promise<number | null> {
  const team = await tx.team.findUnique({ where: { id: teamId }, select: { routingVersion: true } });
  return team ? team.routingVersion : null;
}

const dropRow = (tx: Tx, leadId: string) => tx.waitingLead.deleteMany({ where: { leadId } });

/**
 * One waiting lead, in one transaction, by `routing` (the team's, read before it): "stale"
 * when the team's routing changed since (read it again). Adds the jobs it queued to `jobs`.
 */
async function settle(row: WaitingRow, routing: Routing | null, now: Date, jobs: { count: number }): Promise<Outcome> {
  return db().$transaction(
    async (tx): Promise<Outcome> => {
      const { teamId, leadId, ruleId } = row;
      const rule = routing?.rules.find((candidate) => candidate.id === ruleId);
      // Memberships before the lead, as assignLeads takes them.
      const roles = await lockMemberRoles(tx, teamId, rule?.userIds ?? []);
      const [lead] = await lockOwnershipRows(tx, teamId, [leadId]);
      if (!lead || lead.ownerId !== null) {
        await dropRow(tx, leadId);
        return "dropped";
      }
      const stored = await lockRule(tx, teamId, ruleId);
      if (stored?.enabled && (!routing || (await routingVersion(tx, teamId)) !== routing.version)) return "stale";
      // Gone, disabled, or unreadable (such a rule never matches: routing-snapshot.ts).
      if (!stored?.enabled || !routing || !rule) {
        await dropRow(tx, leadId);
        return "dropped";
      }
      const userIds = rule.userIds.filter((userId) => roles.has(userId) && routing.members.has(userId));
      const onDuty = userIds.map((userId) => isOnDuty(routing.members.get(userId)!, now));
      const picked = pickTurn(stored.turn, onDuty);
      if (!picked) return "waiting";
      if (rule.mode === "round_robin" && userIds.length > 1) {
        await tx.assignmentRule.update({ where: { id: ruleId }, data: { turn: picked.nextTurn }, select: { id: true } });
      }
      jobs.count += await writeLeadAssignment(tx, {
        teamId,
        leadId,
        from: null,
        ownerId: userIds[picked.index]!,
        actor: CLI_ACTOR,
        at: now,
        reason: REASON,
      });
      await dropRow(tx, leadId);
      return "assigned";
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** Looks at every waiting lead as of `now` (oldest first): assigns those with someone on duty, drops those that no longer wait. */
export async function assignWaitingLeads(now: Date): Promise<WaitingRun> {
  const run: WaitingRun = { assigned: 0, dropped: 0, waiting: 0 };
  const jobs = { count: 0 };
  const routings = new Map<string, Routing | null>();
  const routingOf = async (teamId: string, fresh = false) => {
    if (fresh || !routings.has(teamId)) routings.set(teamId, await loadRouting(teamId));
    return routings.get(teamId)!;
  };
  let cursor: WaitingRow | null = null;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const rows = await waitingAfter(cursor);
    for (const row of rows) {
      let outcome = await settle(row, await routingOf(row.teamId), now, jobs);
      // The team's routing changed since it was read: read again, once; still changing, next run.
      if (outcome === "stale") outcome = await settle(row, await routingOf(row.teamId, true), now, jobs);
      run[outcome === "stale" ? "waiting" : outcome]++;
    }
    if (rows.length < WAITING_BATCH) break;
    cursor = rows.at(-1)!;
  }
  if (jobs.count) wakeDeliveries();
  return run;
}

/** One run if this instance wins this period's claim; null when another one has it. */
export async function runWaitingLeads(now: Date): Promise<WaitingRun | null> {
  // With no lead waiting (most databases) a tick is one plain read and no write: on SQLite a
  // write every few seconds would keep another process (a migration) waiting.
  if (!(await db().waitingLead.findFirst({ select: { leadId: true } }))) return { assigned: 0, dropped: 0, waiting: 0 };
  if (!(await claimJob(WAITING_JOB, now, WAITING_PERIOD_MS))) return null;
  return assignWaitingLeads(now);
}

/**
 * Runs the job every `everyMs` (default 20 s; one run a minute across instances, by the
 * claim) at the app's clock (a test server's may be moved); returns the function that stops it.
 */
export function startWaitingLeadSchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 20_000,
    clock: options.clock ?? clock,
    run: runWaitingLeads,
    report: (run) => {
      if (run && (run.assigned || run.dropped)) log("info", "waiting_leads.settled", run);
    },
    failedEvent: "waiting_leads.failed",
  });
}
