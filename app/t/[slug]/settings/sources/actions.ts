"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { addLeadSource, deleteLeadSource } from "@/lib/teams/lead-sources";

const nameSchema = z.string().trim().min(1, "Enter a name.").max(100, "Use at most 100 characters.");

export type FormState = ActionResult | null;

export async function addLeadSourceAction(_previous: FormState, form: FormData): Promise<FormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team }) => {
    const parsed = nameSchema.safeParse(form.get("name") ?? "");
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
    try {
      await addLeadSource(team.id, parsed.data);
    } catch (error) {
      if ((error as { code?: string }).code === "P2002") return { ok: false, error: `A source named "${parsed.data}" already exists.` };
      throw error;
    }
    revalidatePath(`/t/${team.slug}/settings/sources`);
    return { ok: true };
  });
}

export async function deleteLeadSourceAction(slug: string, sourceId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team }) => {
    const result = typeof sourceId === "string" ? await deleteLeadSource({ teamId: team.id, sourceId }) : "not-found";
    revalidatePath(`/t/${team.slug}/settings/sources`);
    if (result === "protected") return { ok: false, error: 'The "API" source is the fallback for every lead and cannot be deleted.' };
    return result === "deleted" ? { ok: true } : { ok: false, error: "That source does not exist." };
  });
}
