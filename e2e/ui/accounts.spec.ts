import { execFileSync } from "node:child_process";
import { db } from "../../lib/db/client";
import { createInvite, type CreatedInvite } from "../../lib/teams/invite-changes";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { newTeamWithUser, newUser, signIn, uniqueSlug } from "../support/fixtures";
import { expect, test } from "../support/test";

// Accounts: a password change ends the user's other sessions, an operator's one-time reset
// link, and invite links that are renewed, listed when expired and refused with a 404.

const NEW_PASSWORD = "a fresh and long passphrase";

test("changing the password needs the current one and signs out every other session, not this one", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const here = await signInAs(user);
  const elsewhere = await signInAs(user);
  await here.goto(`/t/${team.slug}/leads`);
  await here.getByRole("link", { name: user.email }).click();
  await expect(here.getByRole("heading", { level: 2, name: "Change password" })).toBeVisible();

  await here.getByLabel("Current password").fill("not the password at all");
  await here.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await here.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByRole("alert").filter({ hasText: "The current password is not right." })).toBeVisible();

  await here.getByLabel("Current password").fill(user.password);
  await here.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await here.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByRole("status").filter({ hasText: "Password changed" })).toHaveText(
    "Password changed. Every other session of yours has been signed out.",
  );

  await here.goto(`/t/${team.slug}/leads`);
  await expect(here.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
  await elsewhere.goto(`/t/${team.slug}/leads`);
  await expect(elsewhere).toHaveURL(/\/signin/);
  expect((await listAuditEvents(team.id)).map((e) => [e.action, e.actorEmail])).toContainEqual(["user.password_changed", user.email]);
});

test("npm run users -- reset-password prints a one-time link that sets a new password; used or unknown links answer 404", async ({
  page,
  baseURL,
}) => {
  const { user } = await newTeamWithUser("admin");
  const printed = JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "scripts/users.ts", "reset-password", user.email, "--json"], {
      env: { ...process.env, NEXTAUTH_URL: baseURL },
      encoding: "utf8",
    }),
  );
  expect(printed).toEqual({
    email: user.email,
    link: expect.stringMatching(/\/reset\/[A-Za-z0-9_-]{43}$/),
    expires_at: expect.any(String),
  });
  expect(JSON.stringify(await db().passwordReset.findMany({ where: { userId: user.id } }))).not.toContain(printed.link.split("/reset/")[1]);

  const opened = await page.goto(printed.link);
  expect(opened!.status()).toBe(200);
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toContainText(`Password set. Every session of ${user.email} has been signed out.`);

  const again = await page.goto(printed.link);
  expect(again!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Link not valid" })).toBeVisible();
  expect((await page.goto("/reset/not-a-real-token"))!.status()).toBe(404);

  await signIn(page, { ...user, password: NEW_PASSWORD });
});

test("an expired invite is listed as expired; New link renews it and the old link answers 404", async ({ signInAs, page }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const email = `${uniqueSlug("late")}@example.test`;
  const old = (await createInvite({ teamId: team.id, email, role: "member", createdById: owner.id })) as CreatedInvite;
  await db().invite.updateMany({ where: { teamId: team.id, email }, data: { expiresAt: new Date(Date.now() - 60_000) } });

  expect((await page.goto(`/invite/${old.token}`))!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Invite not valid" })).toBeVisible();
  expect((await page.goto("/invite/no-such-invite"))!.status()).toBe(404);

  const ownerPage = await signInAs(owner);
  await ownerPage.goto(`/t/${team.slug}/settings/members`);
  const invites = ownerPage.getByRole("region", { name: "Pending invites" });
  await expect(invites.getByRole("listitem").filter({ hasText: email })).toContainText("Expired");
  await invites.getByRole("button", { name: `New link for ${email}` }).click();
  const link = await invites.getByLabel("New invite link", { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(invites.getByRole("listitem").filter({ hasText: email })).not.toContainText("Expired");

  const renewed = await page.goto(link);
  expect(renewed!.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: `Join ${team.name}` })).toBeVisible();
  expect((await page.goto(`/invite/${old.token}`))!.status()).toBe(404);
});

test("a pending invite's link can be renewed: the old link stops working at once", async ({ signInAs, page }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser();
  const old = (await createInvite({ teamId: team.id, email: member.email, role: "member", createdById: admin.id })) as CreatedInvite;
  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/settings/members`);
  const invites = adminPage.getByRole("region", { name: "Pending invites" });
  await invites.getByRole("button", { name: `New link for ${member.email}` }).click();
  const link = await invites.getByLabel("New invite link", { exact: true }).inputValue();
  expect((await page.goto(`/invite/${old.token}`))!.status()).toBe(404);
  expect((await page.goto(link))!.status()).toBe(200);
});
