"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { BULK_DELETE_LIMIT, deleteLeadsById, deleteMatchingLeads } from "@/lib/leads/delete-leads";
import { parseLeadFilter } from "@/lib/leads/lead-filter";
import { erasePerson, parsePerson } from "@/lib/leads/erase-person";

// Owners and admins delete leads; each action checks the Origin, the session and the role
// itself (withTeamRole). The rules (what is deleted, what is audited) are in lib/leads.

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);
const leadIdsSchema = z.array(leadIdSchema).min(1).max(BULK_DELETE_LIMIT);

const leadsPath = (slug: string) => `/t/${slug}/leads`;

export async function deleteLeadsAction(slug: string, ids: string[]): Promise<ActionResult<{ count: number }>> {
  return withTeamRole<{ count: number }>(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = leadIdsSchema.safeParse(ids);
    if (!parsed.success) return { ok: false, error: "Choose at least one lead." };
    const count = await deleteLeadsById({ teamId: team.id, ids: parsed.data, actor });
    revalidatePath(leadsPath(team.slug));
    return count ? { ok: true, count } : { ok: false, error: "Those leads do not exist (they may already be deleted)." };
  });
}

/** `query`: the list's URL query string (its filter); `expected`: the count the user confirmed. */
export async function deleteMatchingLeadsAction(slug: string, query: string, expected: number): Promise<ActionResult<{ count: number }>> {
  return withTeamRole<{ count: number }>(slug, MANAGERS, async ({ team, actor }) => {
    if (typeof query !== "string" || query.length > 2_000 || !Number.isSafeInteger(expected) || expected < 1) {
      return { ok: false, error: "Reload the list and try again." };
    }
    const result = await deleteMatchingLeads({ team, filter: parseLeadFilter(new URLSearchParams(query)), expected, actor });
    revalidatePath(leadsPath(team.slug));
    return result;
  });
}

/** A data-subject erasure: `who` as typed (email or phone), `ids` the leads the admin saw. */
export async function eraseLeadsAction(slug: string, who: string, ids: string[]): Promise<ActionResult<{ count: number }>> {
  return withTeamRole<{ count: number }>(slug, MANAGERS, async ({ team, actor }) => {
    const parsedIds = leadIdsSchema.safeParse(ids);
    const person = typeof who === "string" ? parsePerson(who, team) : null;
    if (!parsedIds.success || !person) return { ok: false, error: "Search for the person again." };
    const count = await erasePerson({ team, person, confirmedIds: parsedIds.data, actor });
    revalidatePath(leadsPath(team.slug));
    return count ? { ok: true, count } : { ok: false, error: "Those leads are already gone: search again." };
  });
}
