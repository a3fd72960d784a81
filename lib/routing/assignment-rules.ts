import { z } from "zod";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { lockTeam } from "../teams/team-store";
import {
  deleteRule,
  insertRule,
  membersAmong,
  readTeamRouting,
  updateRule,
  writeRuleOrder,
  writeTeamFallback,
  type RuleData,
  type StoredRule,
} from "./assignment-rule-store";
import { RULE_MODES } from "./route-lead";
import { conditionSchema, MAX_CONDITIONS } from "./rule-conditions";

// A team's assignment rules as its owners and admins change them (Settings → Lead Routing,
// docs/routing.md): what a valid rule is, that everyone it names is a member, the order,
// the fallback, and an audit event for each change, each in one transaction that bumps the
// team's routingVersion (assignment-rule-store.ts). The actions check the role (MANAGERS).

export const MAX_RULES = 50;
export const MAX_RULE_MEMBERS = 50;

const userId = z.string().min(1).max(100);

export const ruleInputSchema = z
  .object({
    name: z.string().trim().min(1, "Name the rule.").max(100, "At most 100 characters."),
    enabled: z.boolean(),
    conditions: z.array(conditionSchema).max(MAX_CONDITIONS, `At most ${MAX_CONDITIONS} conditions.`),
    mode: z.enum(RULE_MODES),
    userIds: z
      .array(userId)
      .min(1, "Choose who gets the leads.")
      .max(MAX_RULE_MEMBERS, `At most ${MAX_RULE_MEMBERS} members.`)
      .refine((ids) => new Set(ids).size === ids.length, "Choose each member once."),
    fallbackUserId: userId.nullable(),
    /** Nobody on duty: the lead waits for the next member on duty (instead of a fallback member). */
    fallbackLater: z.boolean().default(false),
  })
  .refine((rule) => rule.mode === "round_robin" || rule.userIds.length === 1, "A rule that assigns to one member names one member.")
  .refine(
    (rule) => !(rule.fallbackLater && rule.fallbackUserId !== null),
    "Choose a fallback member or the next member on duty, not both.",
  );

export type RuleInput = z.input<typeof ruleInputSchema>;
export type RoutingResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string };

const NOT_MEMBERS = "Every member a rule names must be a member of the team.";
const GONE = "That rule is gone; reload the page.";

/** The first problem of an input, as a sentence for the form. */
function problem(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Check the rule.";
}

/** Adds a rule at the end (`ruleId` absent) or replaces one. */
export async function saveRule(options: {
  teamId: string;
  ruleId?: string;
  input: RuleInput;
  actor: AuditActor;
}): Promise<RoutingResult<{ ruleId: string }>> {
  const parsed = ruleInputSchema.safeParse(options.input);
  if (!parsed.success) return { ok: false, error: problem(parsed.error) };
  const data: RuleData = parsed.data;
  const { teamId, actor } = options;
  return db().$transaction(async (tx): Promise<RoutingResult<{ ruleId: string }>> => {
    await lockTeam(tx, teamId);
    const named = [...data.userIds, ...(data.fallbackUserId ? [data.fallbackUserId] : [])];
    const members = await membersAmong(tx, teamId, named);
    if (named.some((id) => !members.has(id))) return { ok: false, error: NOT_MEMBERS };
    let ruleId = options.ruleId;
    if (ruleId === undefined) {
      if ((await tx.assignmentRule.count({ where: { teamId } })) >= MAX_RULES)
        return { ok: false, error: `A team has at most ${MAX_RULES} rules.` };
      ruleId = (await insertRule(tx, teamId, data)).id;
    } else if (!(await updateRule(tx, teamId, ruleId, data))) return { ok: false, error: GONE };
    const action = options.ruleId === undefined ? "routing.rule_created" : "routing.rule_updated";
    await recordAuditEvent(
      { teamId, action, actor, targetId: ruleId, details: { name: data.name, mode: data.mode, enabled: data.enabled } },
      tx,
    );
    return { ok: true, ruleId };
  });
}

export async function removeRule(options: { teamId: string; ruleId: string; actor: AuditActor }): Promise<RoutingResult> {
  const { teamId, ruleId, actor } = options;
  return db().$transaction(async (tx): Promise<RoutingResult> => {
    await lockTeam(tx, teamId);
    const rule = await tx.assignmentRule.findFirst({ where: { id: ruleId, teamId }, select: { name: true } });
    if (!rule || !(await deleteRule(tx, teamId, ruleId))) return { ok: false, error: GONE };
    await recordAuditEvent({ teamId, action: "routing.rule_deleted", actor, targetId: ruleId, details: { name: rule.name } }, tx);
    return { ok: true };
  });
}

/** Moves a rule one place earlier (-1) or later (+1); at either end nothing changes. */
export async function moveRule(options: { teamId: string; ruleId: string; by: -1 | 1; actor: AuditActor }): Promise<RoutingResult> {
  const { teamId, ruleId, actor } = options;
  return db().$transaction(async (tx): Promise<RoutingResult> => {
    await lockTeam(tx, teamId);
    const ids = (await readTeamRouting(teamId, tx)).rules.map((rule) => rule.id);
    const from = ids.indexOf(ruleId);
    if (from < 0) return { ok: false, error: GONE };
    const to = from + options.by;
    if (to < 0 || to >= ids.length) return { ok: true };
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    await writeRuleOrder(tx, teamId, ids);
    await recordAuditEvent({ teamId, action: "routing.rules_reordered", actor, targetId: ruleId, details: { position: to + 1 } }, tx);
    return { ok: true };
  });
}

/** The member a lead no rule matches goes to; null: it stays unassigned. */
export async function setRoutingFallback(options: { teamId: string; userId: string | null; actor: AuditActor }): Promise<RoutingResult> {
  const { teamId, actor } = options;
  return db().$transaction(async (tx): Promise<RoutingResult> => {
    await lockTeam(tx, teamId);
    if (options.userId !== null && !(await membersAmong(tx, teamId, [options.userId])).has(options.userId))
      return { ok: false, error: NOT_MEMBERS };
    await writeTeamFallback(tx, teamId, options.userId);
    await recordAuditEvent(
      { teamId, action: "routing.fallback_changed", actor, targetId: options.userId, details: { to: options.userId } },
      tx,
    );
    return { ok: true };
  });
}

export type { StoredRule };
export { readTeamRouting };
