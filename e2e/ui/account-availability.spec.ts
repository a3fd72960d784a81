import type { Page } from "@playwright/test";
import { readAvailability } from "../../lib/users/availability-store";
import { checkAtBothWidths, checkPage, VIEWPORTS } from "../support/accessibility-check";
import { newTeamWithUser, newUser, signInWithSession } from "../support/fixtures";
import { expect, test } from "../support/test";

// A member's availability for new leads on their account page (docs/routing.md "Away and
// working hours"), and the app's header there: the one of every signed-in page.

const availability = (page: Page) => page.getByRole("region", { name: "Availability for new leads" });
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

test("a member sets Away with a return date and working hours; after a reload both are kept", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const page = await signInAs(user);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  const section = availability(page);
  await expect(section).toContainText("Assignment rules skip you while you are away or outside your working hours.");
  await expect(section).toContainText("Right now rules can give you new leads.");
  await expect(page.getByRole("region", { name: "Change password" }).getByRole("button", { name: "Change password" })).toBeVisible();
  await checkAtBothWidths(page, "account");

  await section.getByLabel("I am away: give me no new leads").check();
  await section.getByLabel("Back on").fill("2099-07-01");
  await section.getByLabel("Give me new leads only during my working hours").check();
  for (const day of ["Monday", "Saturday"]) await section.getByLabel(day, { exact: true }).setChecked(day === "Saturday");
  await section.getByLabel("From", { exact: true }).fill("22:00");
  await section.getByLabel("To", { exact: true }).fill("06:00");
  await section.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await expect(section.getByText("You get leads again from the start of that day (Asia/Tokyo).")).toBeVisible();
  await section.getByRole("button", { name: "Save availability" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Availability saved." })).toBeVisible();
  await expect(section).toContainText(/Right now you are away: rules give you no new leads until Wednesday,? 1 July 2099\./);

  expect(await readAvailability(user.id)).toEqual({
    away: true,
    // The start of 1 July in Tokyo (UTC+9).
    awayUntil: new Date("2099-06-30T15:00:00Z"),
    workingHours: { timeZone: "Asia/Tokyo", days: [2, 3, 4, 5, 6], start: "22:00", end: "06:00" },
  });

  await page.reload();
  await expect(section.getByLabel("I am away: give me no new leads")).toBeChecked();
  await expect(section.getByLabel("Back on")).toHaveValue("2099-07-01");
  await expect(section.getByLabel("Give me new leads only during my working hours")).toBeChecked();
  for (const day of DAYS) {
    const checkbox = section.getByLabel(day, { exact: true });
    if (["Monday", "Sunday"].includes(day)) await expect(checkbox).not.toBeChecked();
    else await expect(checkbox).toBeChecked();
  }
  await expect(section.getByLabel("From", { exact: true })).toHaveValue("22:00");
  await expect(section.getByLabel("To", { exact: true })).toHaveValue("06:00");
  await expect(section.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");
  await checkAtBothWidths(page, "account: away, with working hours");

  // The header is the app's: its team's sections lead back to the team.
  const header = page.getByRole("banner");
  await expect(header.getByRole("button", { name: /^Switch team/ })).toContainText(team.name);
  await header.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/leads$`));
});

test("a refused save keeps what was entered; a past return date and no working hours mean new leads right away", async ({ signInAs }) => {
  const { user } = await newTeamWithUser("admin");
  const page = await signInAs(user);
  await page.goto("/account");
  const section = availability(page);
  await section.getByLabel("Give me new leads only during my working hours").check();
  for (const day of DAYS) await section.getByLabel(day, { exact: true }).uncheck();
  await section.getByRole("button", { name: "Save availability" }).click();
  await expect(section.getByRole("alert")).toHaveText("Choose at least one working day.");
  await expect(section.getByLabel("Give me new leads only during my working hours")).toBeChecked();
  expect((await readAvailability(user.id)).workingHours).toBeNull();
  await checkPage(page, "account: a refused save");

  await section.getByLabel("Give me new leads only during my working hours").uncheck();
  await section.getByLabel("I am away: give me no new leads").check();
  await section.getByLabel("Back on").fill("2020-01-06");
  await expect(section.getByText("You get leads again from the start of that day (UTC).")).toBeVisible();
  await section.getByRole("button", { name: "Save availability" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Availability saved." })).toBeVisible();
  await expect(section.getByRole("alert")).toHaveCount(0);
  await expect(section).toContainText("Right now rules can give you new leads.");
  expect(await readAvailability(user.id)).toEqual({ away: true, awayUntil: new Date("2020-01-06T00:00:00Z"), workingHours: null });
});

test("a user in no team gets the header without team sections; on a phone its Menu holds the account and Sign out", async ({
  browser,
  baseURL,
}) => {
  const user = await newUser();
  // New working hours start in the zone the browser reports.
  const context = await browser.newContext({ baseURL, timezoneId: "Asia/Tokyo" });
  try {
    const page = await context.newPage();
    await signInWithSession(context, page, user);
    await page.goto("/account");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Lead Intake" })).toBeVisible();
    await expect(header.getByRole("button", { name: /^Switch team/ })).toHaveCount(0);
    await expect(header.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();

    const section = availability(page);
    await expect(section.getByLabel("Time zone")).toBeDisabled();
    await section.getByLabel("Give me new leads only during my working hours").check();
    await expect(section.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");
    await checkAtBothWidths(page, "account of a user in no team");

    await page.setViewportSize({ width: VIEWPORTS[1].width, height: VIEWPORTS[1].height });
    const menu = header.getByRole("button", { name: "Menu" });
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(header.getByRole("link", { name: new RegExp(`^Account \\(${user.email}\\)$`) })).toBeVisible();
    await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
    await checkPage(page, "account of a user in no team, the phone's menu open");
  } finally {
    await context.close();
  }
});
