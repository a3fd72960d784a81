import { listLeadSources } from "../../lib/teams/lead-sources";
import { findMembership, findTeamBySlug } from "../../lib/teams/team-store";
import { newTeamWithUser, newUser, uniqueSlug } from "../support/fixtures";
import { expect, test } from "../support/test";

test("a member creates a team from the team switcher and lands in it as its owner", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/leads`);
  await page.getByRole("button", { name: /^Switch team/ }).click();
  await page.getByRole("list", { name: "Your teams" }).getByRole("link", { name: "New team" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New team" })).toBeVisible();
  const name = `Founded ${uniqueSlug("ui")}`;
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/t\/founded-ui-[0-9a-f]+\/settings\/general$/);
  const slug = new URL(page.url()).pathname.split("/")[2]!;
  await expect(page.getByRole("button", { name: /^Switch team/ })).toContainText(name);
  await expect(page.getByRole("button", { name: /^Switch team/ })).toContainText("Owner");
  const created = (await findTeamBySlug(slug))!;
  expect((await findMembership({ userId: user.id, slug }))?.role).toBe("owner");
  expect((await listLeadSources(created.id)).map((s) => s.name)).toEqual(["API"]);
  // The creator is an owner: the audit log shows the creation.
  await page.goto(`/t/${slug}/settings/audit`);
  await expect(page.getByRole("table", { name: "Audit log, newest first" }).locator("tbody tr")).toContainText([`Team created`]);
});

test("a user without a team is offered New team; an empty name is refused in the form", async ({ signInAs }) => {
  const user = await newUser();
  const page = await signInAs(user);
  await page.goto("/");
  await page.getByRole("link", { name: "New team" }).click();
  await page.getByLabel("Team name").fill("   ");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Give the team a name." })).toBeVisible();
  await expect(page).toHaveURL(/\/teams\/new$/);
});

test("signed out, New team goes to sign-in first", async ({ page }) => {
  await page.goto("/teams/new");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fteams%2Fnew$/);
});
