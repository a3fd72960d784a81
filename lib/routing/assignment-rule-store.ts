import type { Tx } from "../db/client";
import { db } from "../db/client";
import type { RuleMode } from "./route-lead";
import type { Condition } from "./rule-conditions";

// The rows of a team's lead routing as its admins edit them (Settings → Lead Routing): the
// assignment rules in order and the team's fallback member. Every write here bumps the
// team's routingVersion in the same transaction, which is what tells the intake's cached
// routing (routing-snapshot.ts) to read them again. The rules of who may change what, the
// validation and the audit events are assignment-rules.ts'.

export type RuleData = {
  name: string;
  enabled: boolean;
  conditions: Condition[];
  mode: RuleMode;
  userIds: string[];
  fallbackUserId: string | null;
  /** Nobody on duty: the lead waits for the next member on duty (fallbackUserId is then null). */
  fallbackLater: boolean;
};

export type StoredRule = RuleData & { id: string; position: number };

export type TeamRouting = { rules: StoredRule[]; fallbackUserId: string | null };

const RULE_SELECT = {
  id: true,
  position: true,
  name: true,
  enabled: true,
  conditions: true,
  mode: true,
  userIds: true,
  fallbackUserId: true,
  fallbackLater: true,
} as const;

type RuleRecord = { [K in keyof typeof RULE_SELECT]: unknown };

const toRule = (row: RuleRecord): StoredRule => ({
  id: row.id as string,
  position: row.position as number,
  name: row.name as string,
  enabled: row.enabled as boolean,
  conditions: (Array.isArray(row.conditions) ? row.conditions : []) as Condition[],
  mode: row.mode as RuleMode,
  userIds: (Array.isArray(row.userIds) ? row.userIds : []) as string[],
  fallbackUserId: row.fallbackUserId as string | null,
  fallbackLater: row.fallbackLater === true,
});

/** The team's rules in order, and its fallback member. */
export async function readTeamRouting(teamId: string, client: Tx = db()): Promise<TeamRouting> {
  // One after another: inside a transaction Prisma's pg client runs one query at a time.
  const rules = await client.assignmentRule.findMany({
    where: { teamId },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: RULE_SELECT,
  });
  const team = await client.team.findUnique({ where: { id: teamId }, select: { routingFallbackUserId: true } });
  return { rules: rules.map(toRule), fallbackUserId: team?.routingFallbackUserId ?? null };
}

/** Tells every instance's intake to read the team's routing again (in the change's transaction). */
export async function bumpRoutingVersion(tx: Tx, teamId: string): Promise<void> {
  await tx.team.update({ where: { id: teamId }, data: { routingVersion: { increment: 1 } } });
}

/** Adds a rule after the team's last one. */
export async function insertRule(tx: Tx, teamId: string, data: RuleData): Promise<StoredRule> {
  const last = await tx.assignmentRule.findFirst({ where: { teamId }, orderBy: { position: "desc" }, select: { position: true } });
  const row = await tx.assignmentRule.create({ data: { teamId, position: (last?.position ?? 0) + 1, ...data }, select: RULE_SELECT });
  await bumpRoutingVersion(tx, teamId);
  return toRule(row);
}

/** Replaces a rule's settings; false when the team has no such rule. A round robin keeps its turn. */
export async function updateRule(tx: Tx, teamId: string, ruleId: string, data: RuleData): Promise<boolean> {
  const { count } = await tx.assignmentRule.updateMany({ where: { id: ruleId, teamId }, data });
  if (count) await bumpRoutingVersion(tx, teamId);
  return count === 1;
}

export async function deleteRule(tx: Tx, teamId: string, ruleId: string): Promise<boolean> {
  const { count } = await tx.assignmentRule.deleteMany({ where: { id: ruleId, teamId } });
  if (count) await bumpRoutingVersion(tx, teamId);
  return count === 1;
}

/** Sets the rules' order: `ids` are all of the team's rule ids, first first. */
export async function writeRuleOrder(tx: Tx, teamId: string, ids: readonly string[]): Promise<void> {
  for (const [index, id] of ids.entries()) await tx.assignmentRule.updateMany({ where: { id, teamId }, data: { position: index + 1 } });
  await bumpRoutingVersion(tx, teamId);
}

export async function writeTeamFallback(tx: Tx, teamId: string, userId: string | null): Promise<void> {
  await tx.team.update({ where: { id: teamId }, data: { routingFallbackUserId: userId, routingVersion: { increment: 1 } } });
}

/** Of these users, those who are members of the team. */
export async function membersAmong(tx: Tx, teamId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await tx.membership.findMany({ where: { teamId, userId: { in: [...userIds] } }, select: { userId: true } });
  return new Set(rows.map((row) => row.userId));
}
