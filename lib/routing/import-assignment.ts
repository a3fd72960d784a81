import { join } from "@prisma/client/runtime/client";
import type { Tx } from "../db/client";
import { env } from "../env";
import { lockLeadWriters } from "../leads/lead-number-store";
import { membersAmong } from "./assignment-rule-store";
import { pickTurn, routeLead, type RoutePlan, type Routing } from "./route-lead";
import { loadRouting } from "./routing-snapshot";
import type { RoutedLead } from "./rule-conditions";

// Whom an import's new leads go to (docs/routing.md "Imports"), batch by batch inside the
// batch's own transaction (lib/imports/commit-batch.ts): all to one member while they are a
// member, or by the team's rules as they are when the batch runs (read afresh before it,
// checked against the team's routingVersion inside it). A round robin's turns are taken in
// file order from the rule row's stored turn, and the new turn is written in the same
// transaction: a rolled-back batch takes no turn, and the intake continues the rotation.

export const IMPORT_ASSIGN_MODES = ["none", "rules", "member"] as const;
export type ImportAssignMode = (typeof IMPORT_ASSIGN_MODES)[number];

/** An import's choice as stored on it (Import.assignMode, assignUserId). */
export type ImportAssignChoice = { mode: ImportAssignMode; userId: string | null };

export const NO_ASSIGNMENT: ImportAssignChoice = { mode: "none", userId: null };

/** What a batch assigns by, read before its transaction. */
export type BatchAssignment = { mode: "none" } | { mode: "member"; userId: string } | { mode: "rules"; routing: Routing | null };

/** The team's routing as it was read changed before the batch's transaction saw it: read it again and retry the batch. */
export class RoutingMovedError extends Error {
  override name = "RoutingMovedError";
}

/** Whether the routing can assign anyone at all: an enabled rule, or a fallback who is a member. */
export function routesAnyone(routing: Routing | null): routing is Routing {
  return routing !== null && (routing.rules.length > 0 || (routing.fallbackUserId !== null && routing.members.has(routing.fallbackUserId)));
}

/**
 * Before a batch's transaction: the routing of "rules", read afresh (on the driver, which
 * cannot be used inside a Prisma transaction on SQLite: it waits for the same lock).
 */
export async function batchAssignment(teamId: string, choice: ImportAssignChoice): Promise<BatchAssignment> {
  if (choice.mode === "member" && choice.userId) return { mode: "member", userId: choice.userId };
  if (choice.mode === "rules") return { mode: "rules", routing: await loadRouting(teamId) };
  return { mode: "none" };
}

const postgres = () => env().DATABASE_PROVIDER === "postgres";

/**
 * The team's routingVersion, null when the team is gone. PostgreSQL: with the team row's
 * KEY SHARE lock, which a membership change (lockTeam: FOR UPDATE) waits for, so the members
 * read after it stay members to the commit, and a removal that comes later releases this
 * batch's leads; the batch's lead INSERT takes the same lock for its foreign key anyway.
 */
async function teamVersion(tx: Tx, teamId: string, lock: boolean): Promise<number | null> {
  const rows = lock
    ? await tx.$queryRaw<{ routingVersion: number }[]>`SELECT "routingVersion" FROM "Team" WHERE "id" = ${teamId} FOR KEY SHARE`
    : await tx.$queryRaw<{ routingVersion: number }[]>`SELECT "routingVersion" FROM "Team" WHERE "id" = ${teamId}`;
  return rows[0] ? Number(rows[0].routingVersion) : null;
}

/**
 * The stored turns of these round-robin rules of the team (sorted ids), locked to the commit.
 * PostgreSQL: the lead writers' order lock first (lockLeadWriters: the lead counter's row;
 * a batch that filled duplicates took it already), then the rules FOR UPDATE in id order, the
 * order the lead writer's batches take them in (batchLocksSql in
 * lib/leads/lead-writer-postgres.ts: the counter only with repeats or a release, then the
 * teams' rules in id order), so an import's batch and a create_lead queue for each other
 * instead of deadlocking.
 * SQLite: the transaction holds the write lock from BEGIN IMMEDIATE.
 */
async function lockTurns(tx: Tx, teamId: string, ruleIds: readonly string[]): Promise<Map<string, number>> {
  let rows: { id: string; turn: number | bigint }[];
  if (postgres()) {
    await lockLeadWriters(tx);
    rows = await tx.$queryRaw`SELECT "id", "turn" FROM "AssignmentRule"
      WHERE "teamId" = ${teamId} AND "id" IN (${join([...ruleIds])}) ORDER BY "id" FOR UPDATE`;
  } else {
    rows = await tx.assignmentRule.findMany({ where: { teamId, id: { in: [...ruleIds] } }, select: { id: true, turn: true } });
  }
  return new Map(rows.map((row) => [row.id, Number(row.turn)]));
}

/** The users a plan may give the lead to. */
const candidates = (plan: RoutePlan): readonly string[] =>
  plan.kind === "owner" ? [plan.userId] : plan.kind === "turn" ? plan.userIds : [];

/**
 * Inside the batch's transaction, before its leads are inserted: each lead's owner (null:
 * unassigned), in the leads' order. "member": the member while they are one. "rules": each
 * lead planned by the routing at `now` (route-lead.ts), a round robin's turns taken in order
 * from its rule's stored turn (pickTurn) and the rule's new turn written; an owner who is no
 * member any more gets nothing. Throws RoutingMovedError when the team's routing changed
 * since it was read.
 */
export async function batchOwners(
  tx: Tx,
  options: { teamId: string; assignment: BatchAssignment; leads: readonly RoutedLead[]; now: Date },
): Promise<(string | null)[]> {
  const { teamId, assignment, leads } = options;
  const unassigned = leads.map(() => null);
  if (assignment.mode === "none" || !leads.length) return unassigned;
  const version = await teamVersion(tx, teamId, postgres());
  if (version === null) return unassigned;
  if (assignment.mode === "member") {
    const members = await membersAmong(tx, teamId, [assignment.userId]);
    return leads.map(() => (members.has(assignment.userId) ? assignment.userId : null));
  }
  const { routing } = assignment;
  if (routing?.version !== version) throw new RoutingMovedError("The team's routing changed since the batch read it");
  if (!routesAnyone(routing)) return unassigned;
  const plans = leads.map((lead) => routeLead(routing, lead, options.now));
  const ruleIds = [...new Set(plans.flatMap((plan) => (plan.kind === "turn" ? [plan.ruleId] : [])))].sort();
  const turns = ruleIds.length ? await lockTurns(tx, teamId, ruleIds) : new Map<string, number>();
  // A rule changed while this batch waited for its row: the turns read are another routing's.
  if (ruleIds.length && postgres() && (await teamVersion(tx, teamId, false)) !== routing.version) {
    throw new RoutingMovedError("The team's routing changed while the batch waited for its rules");
  }
  const members = await membersAmong(tx, teamId, [...new Set(plans.flatMap(candidates))]);
  const stored = new Map(turns);
  const owners = plans.map((plan): string | null => {
    if (plan.kind === "unassigned") return null;
    if (plan.kind === "owner") return members.has(plan.userId) ? plan.userId : null;
    const turn = turns.get(plan.ruleId);
    // The rule was deleted since (its deletion moved the version: PostgreSQL saw that above).
    const picked = turn === undefined ? null : pickTurn(turn, plan.onDuty);
    if (!picked) return null;
    turns.set(plan.ruleId, picked.nextTurn);
    const userId = plan.userIds[picked.index]!;
    return members.has(userId) ? userId : null;
  });
  for (const [ruleId, turn] of turns) {
    if (stored.get(ruleId) !== turn) await tx.$executeRaw`UPDATE "AssignmentRule" SET "turn" = ${turn} WHERE "id" = ${ruleId}`;
  }
  return owners;
}
