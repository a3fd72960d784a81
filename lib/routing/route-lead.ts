import { isOnDuty, type Availability } from "./availability";
import { conditionHolds, type CompiledCondition, type RoutedLead } from "./rule-conditions";

// Whom a new lead goes to (docs/routing.md "Assignment rules"): the team's enabled rules in
// order, the first whose conditions all hold decides; a lead no rule matches goes to the
// team's fallback member, or stays unassigned; one whose rule has nobody on duty goes to the
// rule's fallback member, stays unassigned, or waits (WaitingLead). Pure: the routing is the
// team's snapshot (routing-snapshot.ts), `now` the lead's time; a round robin's turn is taken
// by the lead writer in the lead's own transaction (pickTurn), so a rolled-back lead takes no turn.

export const RULE_MODES = ["member", "round_robin"] as const;
export type RuleMode = (typeof RULE_MODES)[number];

export type RoutingRule = {
  id: string;
  name: string;
  conditions: readonly CompiledCondition[];
  mode: RuleMode;
  /** The members the rule assigns to, in rotation order (one for "member"). */
  userIds: readonly string[];
  /** Who gets the lead when none of userIds is on duty; null: it stays unassigned (or waits, `fallbackLater`). */
  fallbackUserId: string | null;
  /** When none of userIds is on duty, the lead waits for the next one on duty (WaitingLead). */
  fallbackLater: boolean;
};

/**
 * A member of the team as routing sees them: their availability, how events name them, and
 * whether they want an email when a lead is assigned to them (docs/routing.md "Emails").
 */
export type RoutingMember = Availability & { email: string; name: string | null; notifyAssignments: boolean };

/** A team's routing as the intake uses it: its enabled rules in order, its members' availability. */
export type Routing = {
  version: number;
  rules: readonly RoutingRule[];
  /** The team's member for leads no rule matches; null: unassigned. */
  fallbackUserId: string | null;
  /** The team's current members and their availability: nobody else is ever assigned. */
  members: ReadonlyMap<string, RoutingMember>;
};

/**
 * What becomes of the lead: unassigned; a member (by a rule, or the team's fallback); a
 * round robin's turn among `userIds`, of which those `onDuty` may get it (at least one); or
 * unassigned for now, waiting for the next member of the rule on duty (its fallback "later").
 */
export type RoutePlan =
  | { kind: "unassigned"; ruleId: string | null }
  | { kind: "wait"; ruleId: string }
  | { kind: "owner"; userId: string; ruleId: string | null; reason: "rule" | "rule_fallback" | "team_fallback" }
  | { kind: "turn"; ruleId: string; userIds: readonly string[]; onDuty: readonly boolean[] };

export function ruleMatches(rule: RoutingRule, lead: RoutedLead): boolean {
  return rule.conditions.every((condition) => conditionHolds(condition, lead));
}

/** A plan that settles the lead now: every plan but "wait". */
export type ImmediatePlan = Exclude<RoutePlan, { kind: "wait" }>;

/**
 * The plan for a new lead of the team at `now`, where a lead may wait (the intake, "Test a
 * lead"): a rule with nobody on duty and its fallback "later" gives "wait".
 */
export function planLead(routing: Routing, lead: RoutedLead, now: Date): RoutePlan {
  const rule = routing.rules.find((candidate) => ruleMatches(candidate, lead));
  if (!rule) {
    const fallback = routing.fallbackUserId;
    return fallback !== null && routing.members.has(fallback)
      ? { kind: "owner", userId: fallback, ruleId: null, reason: "team_fallback" }
      : { kind: "unassigned", ruleId: null };
  }
  const userIds = rule.userIds.filter((userId) => routing.members.has(userId));
  const onDuty = userIds.map((userId) => isOnDuty(routing.members.get(userId)!, now));
  if (onDuty.some(Boolean)) {
    if (rule.mode === "round_robin" && userIds.length > 1) return { kind: "turn", ruleId: rule.id, userIds, onDuty };
    return { kind: "owner", userId: userIds[onDuty.indexOf(true)]!, ruleId: rule.id, reason: "rule" };
  }
  if (rule.fallbackLater) return { kind: "wait", ruleId: rule.id };
  const fallback = rule.fallbackUserId;
  return fallback !== null && routing.members.has(fallback)
    ? { kind: "owner", userId: fallback, ruleId: rule.id, reason: "rule_fallback" }
    : { kind: "unassigned", ruleId: rule.id };
}

/** The plan for a lead that cannot wait (an import's): planLead, a "wait" leaving it unassigned. */
export function routeLead(routing: Routing, lead: RoutedLead, now: Date): ImmediatePlan {
  const plan = planLead(routing, lead, now);
  return plan.kind === "wait" ? { kind: "unassigned", ruleId: plan.ruleId } : plan;
}

/**
 * A round robin's turn: from the rule's stored `turn` (any non-negative integer; read modulo
 * the members' count), the first member on duty gets the lead, and the next turn starts
 * after them (off-duty members are passed over). PostgreSQL's lead writer does the same in SQL (lead-routing-postgres.ts).
 */
export function pickTurn(turn: number, onDuty: readonly boolean[]): { index: number; nextTurn: number } | null {
  const n = onDuty.length;
  const start = ((turn % n) + n) % n;
  for (let k = 0; k < n; k++) {
    const index = (start + k) % n;
    if (onDuty[index]) return { index, nextTurn: index + 1 };
  }
  return null;
}
