import { newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Team Settings → General → Notifications: each member's own new-lead email choice. The
// shared test server has no SMTP_URL, so the option says email is not configured and
// cannot be turned on (lib/notifications/new-lead-email.test.ts sends through an SMTP sink).

test("without SMTP_URL the new-lead email option says email is not configured", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/general`);
  const notifications = page.getByRole("region", { name: "Notifications" });
  const option = notifications.getByRole("checkbox", { name: "Email me about each new lead of this team" });
  await expect(option).not.toBeChecked();
  await expect(option).toBeDisabled();
  await expect(notifications).toContainText("Email is not configured on this server");
});
