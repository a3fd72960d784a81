"use server";

import { revalidatePath } from "next/cache";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { addSpamListValues, removeSpamListValue, type AddValuesResult } from "@/lib/spam/spam-list-changes";
import { saveSpamSettings } from "@/lib/spam/spam-settings";

// Settings → Spam (docs/spam.md "Settings"). The rules, the role check included, are
// lib/spam's; these only read the form and refresh the page.

export type SpamSettingsState = ActionResult | null;

export async function saveSpamSettingsAction(_previous: SpamSettingsState, form: FormData): Promise<SpamSettingsState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team, role, actor }) => {
    const input = Object.fromEntries(
      ["threshold", "businessOnly", "burstLimit", "burstMinutes", "retentionDays"].map((name) => [name, form.get(name)]),
    );
    const saved = await saveSpamSettings({ teamId: team.id, role, input, actor });
    if (!saved.ok) return saved;
    revalidatePath(`/t/${team.slug}/settings/spam`);
    return { ok: true };
  });
}

export type AddValuesState = AddValuesResult | null;

/** Values typed one per line to one list: all added, or none with each refused line named. */
export async function addSpamListValuesAction(_previous: AddValuesState, form: FormData): Promise<AddValuesState> {
  const outcome = await withTeamRole(form.get("slug"), MANAGERS, async ({ team, role, actor }) => {
    const result = await addSpamListValues({ teamId: team.id, role, list: form.get("list"), text: form.get("values"), actor });
    if (result.ok) revalidatePath(`/t/${team.slug}/settings/spam`);
    return { ok: true, result };
  });
  return outcome.ok ? outcome.result : { ok: false, error: outcome.error, problems: [] };
}

export async function removeSpamListEntryAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, role, actor }) => {
    const removed = await removeSpamListValue({ teamId: team.id, role, id, actor });
    revalidatePath(`/t/${team.slug}/settings/spam`);
    return removed;
  });
}
