"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { setFormConsent } from "@/lib/consent/consent-changes";
import { parseConsentSettings } from "@/lib/consent/consent-settings";
import { CHANNEL_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { parseRepeatsChoice } from "@/lib/leads/repeats-choice";
import { changeSpamChecks } from "@/lib/spam/channel-spam-checks";
import { parseWebFormSettings } from "@/lib/web-forms/web-form-settings";
import {
  UnknownSourceError,
  createWebForm,
  deleteWebForm,
  setWebFormEnabled,
  setWebFormRepeats,
  updateWebForm,
} from "@/lib/web-forms/web-form-changes";
import { isFormId } from "@/lib/web-forms/web-form-store";

// Owners and admins create, change, disable and delete web forms; every member sees them.
// Each action checks the Origin, the session and the role itself (withTeamRole).

export type WebFormState = ActionResult | null;

const formsPath = (slug: string) => `/t/${slug}/settings/web-forms`;

export async function createWebFormAction(_previous: WebFormState, form: FormData): Promise<WebFormState> {
  let created: string | null = null;
  const result = await withTeamRole(form.get("slug"), MANAGERS, async ({ team, user, actor }) => {
    const parsed = parseWebFormSettings(form);
    if ("problem" in parsed) return { ok: false, error: parsed.problem };
    const choice = parseRepeatsChoice(form.get("repeats") ?? CHANNEL_REPEATS_DEFAULT);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    // A checkbox: sent as "on" when ticked, absent when not.
    const spamChecks = form.get("spam_checks") === "on";
    try {
      const formId = await createWebForm({ teamId: team.id, settings: parsed.settings, repeats, spamChecks, createdById: user.id, actor });
      created = `${formsPath(team.slug)}/${formId}`;
    } catch (error) {
      if (error instanceof UnknownSourceError) return { ok: false, error: error.message };
      throw error;
    }
    revalidatePath(formsPath(team.slug));
    return { ok: true };
  });
  if (created) redirect(created);
  return result;
}

export async function updateWebFormAction(_previous: WebFormState, form: FormData): Promise<WebFormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team, actor }) => {
    const formId = String(form.get("form_id") ?? "");
    const parsed = parseWebFormSettings(form);
    if ("problem" in parsed) return { ok: false, error: parsed.problem };
    let updated: boolean;
    try {
      updated = isFormId(formId) && (await updateWebForm({ teamId: team.id, formId, settings: parsed.settings, actor }));
    } catch (error) {
      if (error instanceof UnknownSourceError) return { ok: false, error: error.message };
      throw error;
    }
    revalidatePath(formsPath(team.slug));
    return updated ? { ok: true } : { ok: false, error: "That form does not exist (it may have been deleted)." };
  });
}

/** What a repeat submission to the form does (docs/leads.md "Repeat submissions"). */
export async function setWebFormRepeatsAction(slug: string, formId: string, repeatsChoice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const choice = parseRepeatsChoice(repeatsChoice);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    const changed =
      typeof formId === "string" && isFormId(formId) && (await setWebFormRepeats({ teamId: team.id, formId, repeats, actor }));
    revalidatePath(formsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: "That form does not exist (it may have been deleted)." };
  });
}

/** Whether the spam checks run on the form's submissions ("on" or "off"; docs/spam.md "Per channel"). */
export async function setWebFormSpamChecksAction(slug: string, formId: string, choice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, role, actor }) => {
    const result = await changeSpamChecks({ channel: "web_form", teamId: team.id, id: formId, choice, role, actor });
    revalidatePath(formsPath(team.slug), "layout");
    return result;
  });
}

export async function setWebFormEnabledAction(slug: string, formId: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const changed =
      typeof formId === "string" &&
      isFormId(formId) &&
      (await setWebFormEnabled({ teamId: team.id, formId, enabled: enabled === true, actor }));
    revalidatePath(formsPath(team.slug));
    return changed ? { ok: true } : { ok: false, error: "That form does not exist (it may have been deleted)." };
  });
}

/** Deletes the form and returns to the list of forms. */
export async function deleteWebFormAction(slug: string, formId: string): Promise<ActionResult> {
  const result = await withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const deleted = typeof formId === "string" && isFormId(formId) && (await deleteWebForm({ teamId: team.id, formId, actor }));
    revalidatePath(formsPath(team.slug));
    return deleted ? { ok: true } : { ok: false, error: "That form does not exist (it may already be deleted)." };
  });
  if (result.ok) redirect(formsPath(String(slug)));
  return result;
}

/** What consent the form asks for (docs/consent.md): every change of the text makes a new version. */
export async function setWebFormConsentAction(_previous: WebFormState, form: FormData): Promise<WebFormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team, actor }) => {
    const formId = String(form.get("form_id") ?? "");
    const parsed = parseConsentSettings(form);
    if ("problem" in parsed) return { ok: false, error: parsed.problem };
    const changed =
      isFormId(formId) &&
      (await setFormConsent({
        teamId: team.id,
        formId,
        settings: parsed.settings,
        doubleOptIn: parsed.doubleOptIn,
        hold: parsed.hold,
        actor,
      }));
    revalidatePath(formsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: "That form does not exist (it may have been deleted)." };
  });
}
