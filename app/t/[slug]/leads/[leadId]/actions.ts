"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { assignLeads, setLeadStatus } from "@/lib/leads/lead-ownership";
import { isLeadStatus } from "@/lib/leads/lead-status";
import { ROLES } from "@/lib/teams/team-store";

// A lead's status and owner from its page (docs/routing.md). Every member of the team may
// call these; who may change what (a member takes only an unassigned lead for themself) is
// decided by the use case in lib/leads/lead-ownership.ts, whose refusal is returned as is.

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);
const userIdSchema = z.string().min(1).max(100);

const leadPath = (slug: string, leadId: string) => `/t/${slug}/leads/${leadId}`;

export async function setLeadStatusAction(slug: string, leadId: string, status: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    if (!isLeadStatus(status)) return { ok: false, error: "Choose a status." };
    const result = await setLeadStatus({ teamId: team.id, leadIds: [id.data], status, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** `ownerId`: a member's user id, or "" for no one (unassigned). */
export async function assignLeadAction(slug: string, leadId: string, ownerId: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    const owner = ownerId === "" ? null : userIdSchema.safeParse(ownerId);
    if (!id.success || (owner !== null && !owner.success)) return { ok: false, error: "Reload the page and choose again." };
    const result = await assignLeads({ teamId: team.id, leadIds: [id.data], ownerId: owner?.data ?? null, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** The signed-in member takes the lead for themself. */
export async function takeLeadAction(slug: string, leadId: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, user, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const result = await assignLeads({ teamId: team.id, leadIds: [id.data], ownerId: user.id, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}
