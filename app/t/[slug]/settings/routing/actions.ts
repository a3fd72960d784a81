"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { moveRule, removeRule, saveRule, setRoutingFallback, type RuleInput } from "@/lib/routing/assignment-rules";
import { previewRouting, type PreviewOrigin } from "@/lib/routing/routing-preview";
import { now } from "@/lib/time/clock";

// Settings → Lead Routing (docs/routing.md): owners and admins change the team's assignment
// rules and fallback member, and test where a lead would go. Each action checks the Origin,
// the session and the role (withTeamRole); what a valid rule is, and the audit events, are
// lib/routing/assignment-rules.ts'.

const idSchema = z.string().min(1).max(100);
const routingPath = (slug: string) => `/t/${slug}/settings/routing`;
const GONE = "That rule is gone; reload the page.";

/** The test box holds one lead's body; the API's own body limit is far below this. */
const MAX_TEST_LEAD_CHARS = 100_000;

/** Adds a rule (`ruleId` null) or replaces one; `input` is checked by saveRule (ruleInputSchema). */
export async function saveRuleAction(slug: string, ruleId: string | null, input: RuleInput): Promise<ActionResult<{ ruleId: string }>> {
  return withTeamRole<{ ruleId: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const id = ruleId === null ? null : idSchema.safeParse(ruleId);
    if (id !== null && !id.success) return { ok: false, error: GONE };
    const result = await saveRule({ teamId: team.id, ruleId: id?.data, input, actor });
    if (result.ok) revalidatePath(routingPath(team.slug));
    return result;
  });
}

export async function deleteRuleAction(slug: string, ruleId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(ruleId);
    if (!id.success) return { ok: false, error: GONE };
    const result = await removeRule({ teamId: team.id, ruleId: id.data, actor });
    revalidatePath(routingPath(team.slug));
    return result;
  });
}

/** One place earlier (-1) or later (1). */
export async function moveRuleAction(slug: string, ruleId: string, by: number): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(ruleId);
    if (!id.success) return { ok: false, error: GONE };
    if (by !== -1 && by !== 1) return { ok: false, error: "Move the rule one place up or down." };
    const result = await moveRule({ teamId: team.id, ruleId: id.data, by, actor });
    revalidatePath(routingPath(team.slug));
    return result;
  });
}

/** `userId`: the member leads no rule matches go to, or "" to leave them unassigned. */
export async function setFallbackAction(slug: string, userId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = userId === "" ? null : idSchema.safeParse(userId);
    if (id !== null && !id.success) return { ok: false, error: "Choose a member, or leave such leads unassigned." };
    const result = await setRoutingFallback({ teamId: team.id, userId: id?.data ?? null, actor });
    if (result.ok) revalidatePath(routingPath(team.slug));
    return result;
  });
}

/** The rule the lead would match (null: none) and who would get it (null: nobody), and why. */
export type TestLeadOutcome = {
  rule: { id: string; name: string } | null;
  owner: { id: string; email: string; name: string | null } | null;
  because: string;
};

/** "key:<id>", "form:<id>", "connection:<id>", or "" for the API with no key. */
const arrivesSchema = z.union([z.literal(""), z.string().regex(/^(key|form|connection):[^:]{1,100}$/)]);

function originOf(arrives: string): PreviewOrigin {
  const [kind, id] = arrives.split(":");
  if (kind === "key") return { apiKeyId: id };
  if (kind === "form") return { formId: id };
  if (kind === "connection") return { connectionId: id };
  return {};
}

/** Where the lead `body` (create_lead's JSON body) would go, arriving through `arrives`; nothing is created. */
export async function testLeadAction(slug: string, body: string, arrives: string): Promise<ActionResult<TestLeadOutcome>> {
  return withTeamRole<TestLeadOutcome>(slug, MANAGERS, async ({ team }) => {
    if (typeof body !== "string" || !body.trim()) return { ok: false, error: "Write the lead's JSON body." };
    if (body.length > MAX_TEST_LEAD_CHARS)
      return { ok: false, error: `Use at most ${MAX_TEST_LEAD_CHARS.toLocaleString("en-US")} characters.` };
    const origin = arrivesSchema.safeParse(arrives);
    if (!origin.success) return { ok: false, error: "Choose how the lead arrives." };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { ok: false, error: "That is not valid JSON: write the lead as a JSON object, as create_lead takes it." };
    }
    return previewRouting({ team, body: parsed, origin: originOf(origin.data), now: now() });
  });
}
