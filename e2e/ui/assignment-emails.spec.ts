import type { Page } from "@playwright/test";
import { readNewLeadReminder } from "../../lib/notifications/new-lead-reminder-store";
import { assignmentEmailsEnabled } from "../../lib/teams/team-store";
import { checkAtBothWidths } from "../support/accessibility-check";
import { newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Team Settings → General → Notifications (docs/routing.md "Emails"): each member's own
// choice of assignment emails (on by default), and the team's reminder of leads still New,
// which owners and admins set. The emails themselves go through an SMTP sink in
// lib/notifications/assignment-email.test.ts and lib/maintenance/new-lead-reminders.test.ts.

const generalPage = (slug: string) => `/t/${slug}/settings/general`;
const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });
const reminderForm = (page: Page) => page.getByRole("form", { name: "Reminder for leads still New" });

test("a member turns their assignment emails off and on again; the reminder is shown but not theirs to change", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const page = await signInAs(user);
  await page.goto(generalPage(team.slug));
  const option = notifications(page).getByRole("checkbox", { name: "Email me when a lead is assigned to me" });
  await expect(option).toBeChecked();
  await expect(option).toBeEnabled();

  await option.uncheck();
  await expect(notifications(page).getByRole("status").filter({ hasText: "Assignment emails are off." })).toBeVisible();
  await expect.poll(() => assignmentEmailsEnabled({ userId: user.id, teamId: team.id })).toBe(false);
  await page.reload();
  await expect(option).not.toBeChecked();

  const reminder = reminderForm(page);
  await expect(reminder.getByLabel("Remind when a lead is still New after")).toBeDisabled();
  await expect(reminder.getByLabel("Remind when a lead is still New after")).toHaveValue("");
  await expect(reminder).toContainText("Only owners and admins can change the reminder.");
  await expect(reminder.getByRole("button", { name: "Save reminder" })).toHaveCount(0);

  await option.check();
  await expect(
    notifications(page).getByRole("status").filter({ hasText: "You will get an email when a lead is assigned to you." }),
  ).toBeVisible();
  await expect.poll(() => assignmentEmailsEnabled({ userId: user.id, teamId: team.id })).toBe(true);
});

test("an admin sets the reminder to 1 hour, then off; the page passes axe on a desktop and a phone", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("admin");
  const page = await signInAs(user);
  await page.goto(generalPage(team.slug));
  const reminder = reminderForm(page);
  const delay = reminder.getByLabel("Remind when a lead is still New after");
  await expect(delay).toHaveValue("");
  await expect(reminder).toContainText("Turning the reminder on does not remind of the leads already waiting");
  await checkAtBothWidths(page, "general settings, notifications");

  await delay.selectOption({ label: "1 hour" });
  await reminder.getByRole("button", { name: "Save reminder" }).click();
  await expect(reminder.getByRole("status").filter({ hasText: "Reminder saved." })).toBeVisible();
  expect(await readNewLeadReminder(team.id)).toBe(60);
  await page.reload();
  await expect(delay).toHaveValue("60");

  await delay.selectOption({ label: "Off" });
  await reminder.getByRole("button", { name: "Save reminder" }).click();
  await expect(reminder.getByRole("status").filter({ hasText: "Reminder saved." })).toBeVisible();
  expect(await readNewLeadReminder(team.id)).toBeNull();
});
