"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { releaseQuarantined } from "@/lib/spam/quarantine-release";

// Owners and admins release a quarantined submission into the lead list ("Not spam"); the
// action checks the Origin, the session and the role itself (withTeamRole). The rules are in
// lib/spam/quarantine-release.ts.

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);

export async function releaseFromSpamAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = leadIdSchema.safeParse(id);
    if (!parsed.success) return { ok: false, error: "Reload the page and try again." };
    const released = await releaseQuarantined({ teamId: team.id, id: parsed.data, actor });
    revalidatePath(`/t/${team.slug}/leads`);
    return released.ok ? { ok: true } : released;
  });
}
