import type Database from "better-sqlite3";
import type pg from "pg";
import { PG_CAST, pgValue, sqliteValue } from "../db/column-values";
import { preparedPerConnection } from "../db/driver";
import type { LeadOwner } from "../webhooks/lead-created-event";
import { pickTurn, planLead, type RoutePlan, type Routing } from "./route-lead";
import { cachedRouting, routingPostgres, routingSqlite } from "./routing-snapshot";
import type { RoutedLead } from "./rule-conditions";

// Assignment at intake (docs/routing.md "At intake"), inside the lead's own transaction, on
// the database driver like the rest of the lead writer: the team's routing (cached under its
// version), the plan (route-lead.ts), a round robin's turn taken and advanced on its rule's
// row, and the owner checked to be a member still. A team without rules costs nothing but
// reading its version (SQLite: one indexed read; PostgreSQL: a column of the lead's statement).
// On PostgreSQL the plan is made before the lead's statement, which carries it out (the
// batch holds its teams' rules' rows, locked first thing: every statement more lengthens the
// time the team's next batch waits for them): planPostgres, then settlePostgres. A lead whose rule has nobody on duty
// and waits (the rule's fallback "later") stays unassigned and gets its WaitingLead row in
// the same transaction (lib/maintenance/waiting-leads.ts assigns it later): one statement
// more for such a lead only.

/**
 * The lead's owner and when it got them, both null when it stays unassigned; `notifyOwner`:
 * the owner wants an email when a lead is assigned to them (from the routing, at its version);
 * `waitRuleId`: the unassigned lead waits for the next member of this rule on duty.
 */
export type Assignment = { owner: LeadOwner; assignedAt: Date | null; notifyOwner: boolean; waitRuleId?: string };

export const UNASSIGNED: Assignment = { owner: null, assignedAt: null, notifyOwner: false };

/** Whether the routing can assign anyone at all. */
const routes = (routing: Routing | null): routing is Routing =>
  routing !== null && (routing.rules.length > 0 || routing.fallbackUserId !== null);

const assignedTo = (routing: Routing, userId: string, at: Date): Assignment => {
  const member = routing.members.get(userId)!;
  return { owner: { id: userId, email: member.email, name: member.name }, assignedAt: at, notifyOwner: member.notifyAssignments };
};

/** A returning lead that already waits keeps waiting since it first did (a new lead never has the row). */
const STILL_WAITING = `ON CONFLICT ("leadId") DO NOTHING`;

type SqliteStatements = {
  turn: Database.Statement;
  setTurn: Database.Statement;
  member: Database.Statement;
  wait: Database.Statement;
};
const statementsOf = preparedPerConnection((database): SqliteStatements => {
  const prepare = (sql: string) => database.prepare(sql).safeIntegers(false);
  return {
    turn: prepare(`SELECT "turn" FROM "AssignmentRule" WHERE "id" = ?`),
    setTurn: prepare(`UPDATE "AssignmentRule" SET "turn" = ? WHERE "id" = ?`),
    member: prepare(`SELECT 1 FROM "Membership" WHERE "teamId" = ? AND "userId" = ?`),
    wait: prepare(`INSERT INTO "WaitingLead" ("leadId", "teamId", "ruleId", "since") VALUES (?, ?, ?, ?) ${STILL_WAITING}`),
  };
});

/**
 * Whom the new lead goes to, inside its SQLite transaction (which holds the write lock, so a
 * turn is read and advanced without a race); called before the lead's row is inserted. A lead
 * that waits (`waitRuleId`) gets its row by insertWaitingSqlite once its own row is in.
 */
export function assignSqlite(database: Database.Database, teamId: string, lead: RoutedLead, now: Date): Assignment {
  const routing = routingSqlite(database, teamId);
  if (!routes(routing)) return UNASSIGNED;
  const s = statementsOf(database);
  const plan = planLead(routing, lead, now);
  if (plan.kind === "wait") return { ...UNASSIGNED, waitRuleId: plan.ruleId };
  const userId = chosenSqlite(s, plan);
  if (userId === null || !s.member.get(teamId, userId)) return UNASSIGNED;
  return assignedTo(routing, userId, now);
}

/** The waiting lead's row, in its SQLite transaction after the lead's own insert. */
export function insertWaitingSqlite(database: Database.Database, wait: { leadId: string; teamId: string; ruleId: string; since: Date }) {
  statementsOf(database).wait.run(wait.leadId, wait.teamId, wait.ruleId, sqliteValue("timestamp", wait.since));
}

function chosenSqlite(s: SqliteStatements, plan: RoutePlan): string | null {
  if (plan.kind === "unassigned" || plan.kind === "wait") return null;
  if (plan.kind === "owner") return plan.userId;
  const row = s.turn.get(plan.ruleId) as { turn: number } | undefined;
  const picked = row && pickTurn(row.turn, plan.onDuty);
  if (!picked) return null;
  s.setTurn.run(picked.nextTurn, plan.ruleId);
  return plan.userIds[picked.index]!;
}

/**
 * pickTurn in SQL, for the rule row `rule` (its "turn" as committed: the UPDATE that uses this
 * locks the row, so instances take turns fairly), `n` members and the on-duty `mask`: the new
 * turn, which is also the 1-based index of the member who gets the lead.
 */
export function nextTurnSql(rule: string, n: string, mask: string): string {
  const start = `(${rule}."turn" % ${n})`;
  return `COALESCE((SELECT (${start} + g.k) % ${n} + 1 FROM generate_series(0, ${n} - 1) AS g(k)
    WHERE (${mask})[(${start} + g.k) % ${n} + 1] ORDER BY g.k LIMIT 1), ${rule}."turn")`;
}

const POSTGRES = {
  // The member only while they are one (a removal since the routing was read leaves it unassigned).
  owner: {
    name: "routing_assign_owner",
    text: `UPDATE "Lead" l SET "ownerId" = m."userId", "assignedAt" = $3::${PG_CAST.timestamp}
      FROM "Membership" m WHERE l."id" = $1 AND m."teamId" = $2 AND m."userId" = $4 RETURNING l."ownerId"`,
  },
  turn: {
    name: "routing_assign_turn",
    text: `WITH r AS (
        UPDATE "AssignmentRule" a SET "turn" = ${nextTurnSql("a", "$5", "$6::boolean[]")} WHERE a."id" = $4 RETURNING a."turn")
      UPDATE "Lead" l SET "ownerId" = m."userId", "assignedAt" = $3::${PG_CAST.timestamp}
      FROM r, "Membership" m WHERE l."id" = $1 AND m."teamId" = $2 AND m."userId" = ($7::text[])[r."turn"]
      RETURNING l."ownerId"`,
  },
  unassign: { name: "routing_unassign", text: `UPDATE "Lead" SET "ownerId" = NULL, "assignedAt" = NULL WHERE "id" = $1` },
  wait: {
    name: "routing_wait",
    text: `INSERT INTO "WaitingLead" ("leadId", "teamId", "ruleId", "since") VALUES ($1, $2, $3, $4::${PG_CAST.timestamp}) ${STILL_WAITING}`,
  },
} as const;

/**
 * The plan as the lead's own statement takes it (lead-writer-postgres.ts): a round robin's
 * rule, its members and who of them is on duty, or a fixed owner; all empty when the lead
 * stays unassigned. `waitRuleId` (not the statement's): the lead waits for that rule's next
 * member on duty, and settlePostgres writes its WaitingLead row.
 */
export type PlannedOwner = {
  ruleId: string | null;
  n: number;
  onDuty: readonly boolean[];
  userIds: readonly string[];
  ownerId: string | null;
  waitRuleId: string | null;
};

const NO_OWNER: PlannedOwner = { ruleId: null, n: 1, onDuty: [], userIds: [], ownerId: null, waitRuleId: null };

function plannedOwner(plan: RoutePlan): PlannedOwner {
  if (plan.kind === "unassigned") return NO_OWNER;
  if (plan.kind === "wait") return { ...NO_OWNER, waitRuleId: plan.ruleId };
  if (plan.kind === "owner") return { ...NO_OWNER, ownerId: plan.userId };
  return { ...NO_OWNER, ruleId: plan.ruleId, n: plan.userIds.length, onDuty: plan.onDuty, userIds: plan.userIds };
}

/** A plan made before the lead's statement, and the routing it was made from. */
export type EarlyPlan = { routing: Routing; owner: PlannedOwner };

/**
 * Before the lead's statement: the plan from the team's routing as this process has it (read
 * now when it has none), so the statement itself assigns the lead and takes the turn, with no
 * statement more while the team's rules' rows are locked. Null when the plan needs the source
 * the statement resolves (a rule tests the source, and the request named one by name).
 */
export async function planPostgres(
  client: pg.PoolClient,
  options: { teamId: string; lead: Omit<RoutedLead, "sourceId">; sourceId: string | null; now: Date },
): Promise<EarlyPlan | null> {
  const routing = cachedRouting(options.teamId) ?? (await routingPostgres(client, options.teamId, -1));
  if (!routing) return null;
  if (!routes(routing)) return { routing, owner: NO_OWNER };
  if (options.sourceId === null && routing.rules.some((rule) => rule.conditions.some((condition) => condition.field === "source")))
    return null;
  return { routing, owner: plannedOwner(planLead(routing, { ...options.lead, sourceId: options.sourceId ?? "" }, options.now)) };
}

/**
 * After the lead's statement, which read the team's routing `version` and gave the lead
 * `ownerId` by the early plan: that owner when the plan was made at that version; otherwise
 * the lead is assigned again now, by the team's current routing (assignPostgres).
 */
export async function settlePostgres(
  client: pg.PoolClient,
  early: EarlyPlan | null,
  options: { teamId: string; version: number; leadId: string; lead: RoutedLead; now: Date; ownerId: string | null },
): Promise<Assignment> {
  if (early && early.routing.version === options.version) {
    if (options.ownerId) return assignedTo(early.routing, options.ownerId, options.now);
    return early.owner.waitRuleId ? waitFor(client, early.owner.waitRuleId, options) : UNASSIGNED;
  }
  const assigned = await assignPostgres(client, options);
  if (!assigned.owner && options.ownerId) await client.query({ ...POSTGRES.unassign, values: [options.leadId] });
  return assigned;
}

/**
 * Whom the new lead `leadId` goes to, inside its PostgreSQL transaction, after its row is
 * inserted: `version` is the team's routingVersion the lead's statement read. A lead that gets
 * an owner costs one statement more; one that stays unassigned none.
 */
export async function assignPostgres(
  client: pg.PoolClient,
  options: { teamId: string; version: number; leadId: string; lead: RoutedLead; now: Date },
): Promise<Assignment> {
  const { teamId, leadId, now } = options;
  const routing = await routingPostgres(client, teamId, options.version);
  if (!routes(routing)) return UNASSIGNED;
  const plan = planLead(routing, options.lead, now);
  if (plan.kind === "unassigned") return UNASSIGNED;
  if (plan.kind === "wait") return waitFor(client, plan.ruleId, options);
  const at = pgValue("timestamp", now);
  const { rows } =
    plan.kind === "owner"
      ? await client.query<{ ownerId: string }>({ ...POSTGRES.owner, values: [leadId, teamId, at, plan.userId] })
      : await client.query<{ ownerId: string }>({
          ...POSTGRES.turn,
          values: [leadId, teamId, at, plan.ruleId, plan.userIds.length, plan.onDuty, plan.userIds],
        });
  const userId = rows[0]?.ownerId;
  return userId ? assignedTo(routing, userId, now) : UNASSIGNED;
}

/** The new lead stays unassigned and waits for the rule's next member on duty: its WaitingLead row. */
async function waitFor(client: pg.PoolClient, ruleId: string, options: { teamId: string; leadId: string; now: Date }): Promise<Assignment> {
  await client.query({ ...POSTGRES.wait, values: [options.leadId, options.teamId, ruleId, pgValue("timestamp", options.now)] });
  return { ...UNASSIGNED, waitRuleId: ruleId };
}
