"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { emailConfigured } from "@/lib/notifications/new-lead-email";
import { writeNewLeadReminder } from "@/lib/notifications/new-lead-reminder-store";
import { setAssignmentEmails, setNewLeadEmails } from "@/lib/notifications/notification-changes";
import { isReminderDelay } from "@/lib/notifications/reminder-delays";
import { ROLES } from "@/lib/teams/team-store";
import { isPhoneCountry } from "@/lib/teams/phone-countries";
import { parseRepeatWindowDays } from "@/lib/teams/repeat-window";
import { updateGeneralSettings } from "@/lib/teams/team-changes";
import { setTeamRetention } from "@/lib/teams/team-store";

const schema = z.object({
  name: z.string().trim().min(1, "Enter a team name.").max(100, "Use at most 100 characters."),
  defaultPhoneCountry: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => code === "" || isPhoneCountry(code), "Choose a country from the list."),
});

export type FormState = ActionResult | null;

export async function updateGeneralAction(_previous: FormState, form: FormData): Promise<FormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team, actor }) => {
    const parsed = schema.safeParse({ name: form.get("name") ?? "", defaultPhoneCountry: form.get("defaultPhoneCountry") ?? "" });
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
    const window = parseRepeatWindowDays(form.get("repeatWindowDays"));
    if ("problem" in window) return { ok: false, error: window.problem };
    await updateGeneralSettings({
      teamId: team.id,
      name: parsed.data.name,
      defaultPhoneCountry: parsed.data.defaultPhoneCountry || null,
      repeatWindowDays: window.days,
      actor,
    });
    revalidatePath(`/t/${team.slug}`, "layout");
    return { ok: true };
  });
}

/** Any member's own choice: an email per new lead of this team. */
export async function setNewLeadEmailsAction(slug: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, user, actor }) => {
    if (enabled && !emailConfigured()) return { ok: false, error: "Email is not configured on this server (SMTP_URL)." };
    await setNewLeadEmails({ userId: user.id, teamId: team.id, enabled: enabled === true, actor });
    revalidatePath(`/t/${team.slug}/settings/general`);
    return { ok: true };
  });
}

/** Any member's own choice: an email when a lead is assigned to them (and the New-lead reminders). */
export async function setAssignmentEmailsAction(slug: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, user, actor }) => {
    await setAssignmentEmails({ userId: user.id, teamId: team.id, enabled: enabled === true, actor });
    revalidatePath(`/t/${team.slug}/settings/general`);
    return { ok: true };
  });
}

const reminderSchema = z.union([
  z.literal(""),
  z.coerce.number().refine((minutes) => isReminderDelay(minutes), "Choose a time from the list."),
]);

/** The team's New-lead reminder: after how many minutes a lead still New is reminded of (empty: off). */
export async function updateNewLeadReminderAction(_previous: FormState, form: FormData): Promise<FormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team }) => {
    const raw = form.get("newLeadReminderMinutes");
    const parsed = reminderSchema.safeParse(typeof raw === "string" ? raw.trim() : "");
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
    await writeNewLeadReminder(team.id, parsed.data === "" ? null : parsed.data);
    revalidatePath(`/t/${team.slug}/settings/general`);
    return { ok: true };
  });
}

const retentionSchema = z.union([
  z.literal(""),
  z.coerce.number().int("Enter a whole number of days.").min(1, "Enter at least 1 day.").max(36_500, "Enter at most 36,500 days."),
]);

/** Lead retention: delete leads older than N days (empty: keep them). */
export async function updateRetentionAction(_previous: FormState, form: FormData): Promise<FormState> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team }) => {
    const raw = form.get("retentionDays");
    const parsed = retentionSchema.safeParse(typeof raw === "string" ? raw.trim() : "");
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
    await setTeamRetention(team.id, parsed.data === "" ? null : parsed.data);
    revalidatePath(`/t/${team.slug}/settings/general`);
    return { ok: true };
  });
}
