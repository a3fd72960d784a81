"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { emptyQuarantine } from "@/lib/spam/empty-quarantine";
import { releaseManyQuarantined, releaseQuarantined, RELEASE_MANY_LIMIT } from "@/lib/spam/quarantine-release";

// Owners and admins release quarantined submissions into the lead list ("Not spam", one or
// the selected ones) and empty the quarantine; each action checks the Origin, the session and
// the role itself (withTeamRole), and the use cases check the role again. The rules are in
// lib/spam/quarantine-release.ts and lib/spam/empty-quarantine.ts.

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);
const leadIdsSchema = z.array(leadIdSchema).min(1).max(RELEASE_MANY_LIMIT);

const leadsPath = (slug: string) => `/t/${slug}/leads`;

export async function releaseFromSpamAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = leadIdSchema.safeParse(id);
    if (!parsed.success) return { ok: false, error: "Reload the page and try again." };
    const released = await releaseQuarantined({ teamId: team.id, id: parsed.data, actor });
    revalidatePath(leadsPath(team.slug));
    return released.ok ? { ok: true } : released;
  });
}

/** "Not spam" for the selected submissions: how many were released, and how many were no longer there. */
export async function releaseSelectedFromSpamAction(
  slug: string,
  ids: string[],
): Promise<ActionResult<{ released: number; gone: number }>> {
  return withTeamRole<{ released: number; gone: number }>(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = leadIdsSchema.safeParse(ids);
    if (!parsed.success) return { ok: false, error: "Select at least one submission, and reload the page." };
    const outcome = await releaseManyQuarantined({ teamId: team.id, ids: parsed.data, actor });
    revalidatePath(leadsPath(team.slug));
    return outcome.ok ? { ok: true, released: outcome.released.length, gone: outcome.gone.length } : outcome;
  });
}

/** "Empty spam": every quarantined submission of the team is deleted now. */
export async function emptySpamAction(slug: string): Promise<ActionResult<{ count: number }>> {
  return withTeamRole<{ count: number }>(slug, MANAGERS, async ({ team, actor }) => {
    const emptied = await emptyQuarantine({ teamId: team.id, actor });
    revalidatePath(leadsPath(team.slug));
    return emptied;
  });
}
