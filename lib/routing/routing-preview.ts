import { db } from "../db/client";
import { ApiError } from "../http/api-error";
import { leadFieldsFromInput } from "../leads/create-lead";
import { parseLeadInput } from "../leads/parse-lead-input";
import { API_SOURCE_NAME, listLeadSourceNames } from "../teams/lead-sources";
import { pickTurn, planLead } from "./route-lead";
import { loadRouting } from "./routing-snapshot";

// "Test a lead" on Settings → Lead Routing: which rule a lead would match and whom it would
// get, by the intake's own rules (the lead built as create_lead builds it, the team's routing
// read afresh, the same plan), without creating anything or taking a round robin's turn.

export type PreviewOrigin = { apiKeyId?: string | null; formId?: string | null; connectionId?: string | null };

export type RoutingPreview =
  | { ok: false; error: string }
  | {
      ok: true;
      rule: { id: string; name: string } | null;
      owner: { id: string; email: string; name: string | null } | null;
      /** Why: a sentence for the page. */
      because: string;
    };

/** The preview for `body` (create_lead's JSON body, as an object) arriving through `origin` at `now`. */
export async function previewRouting(options: {
  team: { id: string; defaultPhoneCountry: string | null };
  body: unknown;
  origin: PreviewOrigin;
  now: Date;
}): Promise<RoutingPreview> {
  const { team, body, now } = options;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, error: "Write the lead as a JSON object." };
  let fields;
  try {
    const input = parseLeadInput(Object.entries(body));
    const origin = {
      apiKeyId: options.origin.apiKeyId ?? null,
      formId: options.origin.formId ?? null,
      connectionId: options.origin.connectionId ?? null,
    };
    const { lead } = leadFieldsFromInput({ team, origin, input });
    // The source is looked up as the intake does (the named one, else "API"), but not made.
    const sources = await listLeadSourceNames(team.id);
    const named = (name: string | undefined) => sources.find((source) => source.name.toLowerCase() === name?.trim().toLowerCase());
    fields = { ...lead, sourceId: (named(input.source) ?? named(API_SOURCE_NAME))?.id ?? "" };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.error };
    throw error;
  }
  const routing = await loadRouting(team.id);
  if (!routing) return { ok: false, error: "The team is gone." };
  const plan = planLead(routing, fields, now);
  const rule = plan.ruleId ? routing.rules.find((candidate) => candidate.id === plan.ruleId)! : null;
  const named = rule ? { id: rule.id, name: rule.name } : null;
  const person = (userId: string) => {
    const member = routing.members.get(userId)!;
    return { id: userId, email: member.email, name: member.name };
  };
  if (plan.kind === "unassigned") {
    const because = rule
      ? "Nobody the rule names is on duty now, and it has no fallback."
      : "No rule matches it, and the team has no fallback member.";
    return { ok: true, rule: named, owner: null, because };
  }
  if (plan.kind === "wait") {
    const because = "Nobody the rule names is on duty now: the lead waits for the next member on duty.";
    return { ok: true, rule: named, owner: null, because };
  }
  if (plan.kind === "owner") {
    const because = {
      rule: "The rule gives it to this member.",
      rule_fallback: "Nobody the rule names is on duty now: its fallback gets it.",
      team_fallback: "No rule matches it: the team's fallback member gets it.",
    }[plan.reason];
    return { ok: true, rule: named, owner: person(plan.userId), because };
  }
  const stored = await db().assignmentRule.findUnique({ where: { id: plan.ruleId }, select: { turn: true } });
  const picked = pickTurn(stored?.turn ?? 0, plan.onDuty);
  const owner = picked ? person(plan.userIds[picked.index]!) : null;
  const offDuty = plan.onDuty.filter((onDuty) => !onDuty).length;
  const skipped = offDuty ? ` (${offDuty} of its members ${offDuty === 1 ? "is" : "are"} away or off duty now)` : "";
  return { ok: true, rule: named, owner, because: `It is this member's turn in the round robin${skipped}.` };
}
