import { createTeam } from "../../lib/teams/team-store";
import { newTeamWithUser, newUser, TEST_PASSWORD, uniqueSlug } from "../support/fixtures";
import { expect, test } from "../support/test";

test("an owner invites an admin by link; the invitee sets a password and joins", async ({ signInAs, browser, baseURL }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/settings/members`);

  const email = `${uniqueSlug("invitee")}@example.test`;
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = await page.getByRole("textbox", { name: "Invite link" }).inputValue();
  expect(link).toMatch(/\/invite\/[\w-]{43}$/);
  await expect(page.getByRole("region", { name: "Pending invites" })).toContainText(email);

  const invitee = await (await browser.newContext({ baseURL })).newPage();
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByRole("heading", { name: `Join ${team.name}` })).toBeVisible();
  await invitee.getByLabel("Choose a password").fill(TEST_PASSWORD);
  await invitee.getByLabel("Confirm password").fill(TEST_PASSWORD);
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee).toHaveURL(new RegExp(`/t/${team.slug}/leads$`));
  await expect(invitee.getByRole("banner")).toContainText("Admin");

  await test.step("the link works once", async () => {
    await invitee.goto(new URL(link).pathname);
    await expect(invitee.getByRole("heading", { name: "Invite not valid" })).toBeVisible();
  });
  await invitee.context().close();

  await page.reload();
  await expect(page.getByRole("table", { name: "Team members" })).toContainText(email);
  await expect(page.getByRole("region", { name: "Pending invites" })).toHaveCount(0);
});

test("the only owner cannot demote themselves; an owner changes roles and removes members", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member" });
  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/settings/members`);

  await page.getByLabel(`Role of ${owner.email}`).selectOption("admin");
  await page.getByRole("button", { name: `Save role of ${owner.email}` }).click();
  await expect(page.getByRole("alert").filter({ hasText: "owner" })).toHaveText("A team must keep at least one owner.");
  await expect(page.getByLabel(`Role of ${owner.email}`)).toHaveValue("owner");

  await page.getByLabel(`Role of ${member.email}`).selectOption("admin");
  await page.getByRole("button", { name: `Save role of ${member.email}` }).click();
  await expect(page.getByRole("button", { name: `Save role of ${member.email}` })).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel(`Role of ${member.email}`)).toHaveValue("admin");

  await page.getByRole("button", { name: `Remove ${member.email}` }).click();
  await page.getByRole("dialog", { name: "Remove member?" }).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("table", { name: "Team members" })).not.toContainText(member.email);
});

test("team switcher, General and Lead Sources: admins edit, members only read", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const slug = uniqueSlug();
  const second = await createTeam({ slug, name: `Second ${slug}`, ownerUserId: admin.id });
  const member = await newUser({ team, role: "member" });

  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/general`);
  await page.getByLabel("Team name").fill(`${team.name} renamed`);
  await page.getByLabel("Default phone country").selectOption("DE");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();

  await page.getByRole("button", { name: /^Switch team/ }).click();
  await page
    .getByRole("list", { name: "Your teams" })
    .getByRole("link", { name: new RegExp(second.name) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/t/${slug}/leads$`));
  await expect(page.getByRole("button", { name: /^Switch team/ })).toContainText(second.name);

  await page.goto(`/t/${team.slug}/settings/sources`);
  const sources = page.getByRole("list", { name: "Lead sources" });
  await page.getByLabel("New source").fill("Website");
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(sources.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Delete source API" })).toHaveCount(0);
  await page.getByRole("button", { name: "Delete source Website" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete source" }).click();
  await expect(sources.getByRole("listitem")).toHaveCount(1);

  const memberPage = await signInAs(member);
  await memberPage.goto(`/t/${team.slug}/settings/general`);
  await expect(memberPage.getByLabel("Team name")).toHaveValue(`${team.name} renamed`);
  await expect(memberPage.getByLabel("Team name")).toBeDisabled();
  await expect(memberPage.getByLabel("Default phone country")).toHaveValue("DE");
  await expect(memberPage.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await memberPage.goto(`/t/${team.slug}/settings/sources`);
  await expect(memberPage.getByRole("button", { name: "Add source" })).toHaveCount(0);
});
