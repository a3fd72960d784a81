"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { BULK_DELETE_LIMIT, deleteLeadsById, deleteMatchingLeads } from "@/lib/leads/delete-leads";
import { parseLeadFilter } from "@/lib/leads/lead-filter";
import { erasedAnything, parsePerson, runErasure, type Erasure } from "@/lib/leads/erase-person";
import { assignLeads, MAX_LEADS_PER_CHANGE, setLeadStatus } from "@/lib/leads/lead-ownership";
import { isLeadStatus } from "@/lib/leads/lead-status";
import { MAX_MERGED, MERGE_FIELDS, mergeLeads, type MergeField } from "@/lib/leads/merge-leads";

// Owners and admins delete leads, and set the status and owner of the selected ones; each
// action checks the Origin, the session and the role itself (withTeamRole). The rules (what
// is deleted or changed, what is audited) are in lib/leads.

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);
const leadIdsSchema = z.array(leadIdSchema).min(1).max(BULK_DELETE_LIMIT);
// An erasure's leads may be none: a person with no lead still has what else names them erased.
const erasedIdsSchema = z.array(leadIdSchema).max(BULK_DELETE_LIMIT);

// The same ids as the lead page's actions, at most a page of them (docs/routing.md).
const changedIdsSchema = z.array(leadIdSchema).min(1).max(MAX_LEADS_PER_CHANGE);
const userIdSchema = z.string().min(1).max(100);

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

/**
 * A data-subject erasure: `who` as typed (email or phone), `ids` the leads the admin saw
 * (none: a person with no lead, whose other records the page listed).
 */
export async function eraseLeadsAction(slug: string, who: string, ids: string[]): Promise<ActionResult<{ erasure: Erasure }>> {
  return withTeamRole<{ erasure: Erasure }>(slug, MANAGERS, async ({ team, actor }) => {
    const parsedIds = erasedIdsSchema.safeParse(ids);
    const person = typeof who === "string" ? parsePerson(who, team) : null;
    if (!parsedIds.success || !person) return { ok: false, error: "Search for the person again." };
    const erasure = await runErasure({ team, person, confirmedIds: parsedIds.data, actor });
    revalidatePath(leadsPath(team.slug));
    return erasedAnything(erasure) ? { ok: true, erasure } : { ok: false, error: "Nothing of this person is left to erase: search again." };
  });
}

const choicesSchema = z.partialRecord(z.enum(MERGE_FIELDS.map(([field]) => field) as [MergeField, ...MergeField[]]), leadIdSchema);

/** Merges `mergedIds` into `survivorId`, keeping per field the value of the chosen lead. */
export async function mergeLeadsAction(
  slug: string,
  survivorId: string,
  mergedIds: string[],
  choices: Record<string, string>,
): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const survivor = leadIdSchema.safeParse(survivorId);
    const merged = z.array(leadIdSchema).max(MAX_MERGED).safeParse(mergedIds);
    const chosen = choicesSchema.safeParse(choices);
    if (!survivor.success || !merged.success || !chosen.success) return { ok: false, error: "Reload the page and choose again." };
    const result = await mergeLeads({ teamId: team.id, survivorId: survivor.data, mergedIds: merged.data, choices: chosen.data, actor });
    // A refusal leaves the page as it is, so the admin reads why before reloading.
    if (result.ok) revalidatePath(leadsPath(team.slug), "layout");
    return result;
  });
}

/** `changed`: how many of the selected leads changed (the others already were as asked). */
type Changed = { changed: number };

/** The selected leads' status; the use case's refusal is returned as is. */
export async function setSelectedStatusAction(slug: string, ids: string[], status: string): Promise<ActionResult<Changed>> {
  return withTeamRole<Changed>(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = changedIdsSchema.safeParse(ids);
    if (!parsed.success) return { ok: false, error: `Choose between 1 and ${MAX_LEADS_PER_CHANGE} leads.` };
    if (!isLeadStatus(status)) return { ok: false, error: "Choose a status." };
    const result = await setLeadStatus({ teamId: team.id, leadIds: parsed.data, status, actor });
    if (!result.ok) return result;
    revalidatePath(leadsPath(team.slug));
    return { ok: true, changed: result.changed.length };
  });
}

/** The selected leads' owner: `ownerId` a member's user id, or "" for no one (unassigned). */
export async function assignSelectedAction(slug: string, ids: string[], ownerId: string): Promise<ActionResult<Changed>> {
  return withTeamRole<Changed>(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = changedIdsSchema.safeParse(ids);
    if (!parsed.success) return { ok: false, error: `Choose between 1 and ${MAX_LEADS_PER_CHANGE} leads.` };
    const owner = ownerId === "" ? null : userIdSchema.safeParse(ownerId);
    if (owner !== null && !owner.success) return { ok: false, error: "Choose a member." };
    const result = await assignLeads({ teamId: team.id, leadIds: parsed.data, ownerId: owner?.data ?? null, actor });
    if (!result.ok) return result;
    revalidatePath(leadsPath(team.slug));
    return { ok: true, changed: result.changed.length };
  });
}
