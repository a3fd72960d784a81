import type { Page } from "@playwright/test";
import { createInvite, type CreatedInvite } from "../../lib/teams/invite-changes";
import type { Role, Team } from "../../lib/teams/team-store";
import { db } from "../../lib/db/client";
import { newTeamWithUser, newUser, uniqueSlug, type TestUser } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { expect, test } from "../support/test";

// Invite links (docs/security.md "Invites"): the page never takes an existing account's
// password and looks the same whether or not the address has an account; someone with an
// account signs in through /signin and comes back to accept; an invite for another address
// says so; the server's password policy holds whatever the form sends.

async function invite(team: Team, inviter: TestUser, email: string, role: Role = "member"): Promise<string> {
  const created = await createInvite({ teamId: team.id, email, role, createdById: inviter.id });
  if (created === "already-member") throw new Error("already a member");
  return `/invite/${(created as CreatedInvite).token}`;
}

/** The card's text with the invited address replaced, to compare two invite pages. */
async function cardText(page: Page, email: string): Promise<string> {
  return (await page.getByRole("main").innerText()).replaceAll(email, "<email>");
}

test("an existing account signs in through /signin, comes back and joins; the page never asks for its password", async ({
  browser,
  baseURL,
}) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const existing = await newUser();
  const fresh = `${uniqueSlug("fresh")}@example.test`;
  const existingLink = await invite(team, owner, existing.email, "admin");
  const freshLink = await invite(team, owner, fresh, "admin");

  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto(freshLink);
  const freshPage = await cardText(page, fresh);
  await page.goto(existingLink);
  await expect(page.getByRole("heading", { name: `Join ${team.name}` })).toBeVisible();
  expect(await cardText(page, existing.email), "same page with or without an account").toBe(freshPage);
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);

  // Choosing a password for an address that has an account creates nothing and checks nothing.
  await page.getByLabel("Choose a password").fill(existing.password);
  await page.getByLabel("Confirm password").fill(existing.password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toContainText("already has an account: sign in to accept");
  await expect(page).toHaveURL(new RegExp(`${existingLink}$`));

  await page.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Finvite%2F/);
  await page.getByLabel("Email").fill(existing.email);
  await page.getByLabel("Password").fill(existing.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${existingLink}$`));
  await expect(page.getByText(`You are signed in as ${existing.email}.`)).toBeVisible();
  await page.getByRole("button", { name: "Join team" }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/leads$`));
  await expect(page.getByRole("banner")).toContainText("Admin");
  await page.context().close();
});

test("signed in with another address, the invite page says whom the invite is for and joins nobody", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const intended = `${uniqueSlug("intended")}@example.test`;
  const link = await invite(team, owner, intended);
  const other = await newUser();
  const page = await signInAs(other);
  await page.goto(link);
  await expect(page.getByRole("status")).toHaveText(
    `This invite is for ${intended}, but you are signed in as ${other.email}. Sign out and sign in with ${intended} to accept it.`,
  );
  await expect(page.getByRole("button", { name: "Join team" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Sign out ${other.email}` })).toBeVisible();
  expect(await db().membership.count({ where: { teamId: team.id, userId: other.id } })).toBe(0);
});

test("the create-account action applies the server's password policy whatever the client sends (no newAccount flag)", async ({
  browser,
  baseURL,
}) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const email = `${uniqueSlug("weak")}@example.test`;
  const link = await invite(team, owner, email);
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto(link);
  await page.getByLabel("Choose a password").fill("a perfectly fine passphrase");
  await page.getByLabel("Confirm password").fill("a different passphrase");
  // Mismatched on purpose: the recorded call changes nothing.
  const recorded = await recordAction(page, () => page.getByRole("button", { name: "Create account and join" }).click());
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("The two passwords do not match.");

  // The reproduction: password "a" with newAccount=0, and other weak passwords.
  const boundary = /boundary=(\S+)/.exec(recorded.headers["content-type"] ?? "")?.[1];
  expect(boundary).toBeTruthy();
  for (const weak of ["a", "fourteen-chars", "passwordpassword"]) {
    const withPassword = recorded.body.replaceAll("a perfectly fine passphrase", weak).replaceAll("a different passphrase", weak);
    const flag = /(name="\d+_newAccount"\r\n\r\n)1/;
    const body = flag.test(withPassword)
      ? withPassword.replace(flag, "$10")
      : withPassword.replace(
          `--${boundary}--`,
          `--${boundary}\r\nContent-Disposition: form-data; name="1_newAccount"\r\n\r\n0\r\n--${boundary}--`,
        );
    const response = await replayAction(page, recorded, body);
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/Use at least 15 characters\.|too common or easy to guess/);
    expect(response.text).not.toContain('"ok":true');
  }
  expect(await db().user.count({ where: { email } })).toBe(0);
  await page.context().close();
});

test("an admin's invite link stops working once an owner removes the admin, and the Audit log says why", async ({
  signInAs,
  browser,
  baseURL,
}) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const admin = await newUser({ team, role: "admin" });
  const invitee = `${uniqueSlug("invitee")}@example.test`;

  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/settings/members`);
  await adminPage.getByLabel("Email", { exact: true }).fill(invitee);
  await adminPage.getByLabel("Role", { exact: true }).selectOption("admin");
  await adminPage.getByRole("button", { name: "Create invite link" }).click();
  const link = new URL(await adminPage.getByRole("textbox", { name: "Invite link" }).inputValue()).pathname;

  const ownerPage = await signInAs(owner);
  await ownerPage.goto(`/t/${team.slug}/settings/members`);
  await expect(ownerPage.getByRole("region", { name: "Pending invites" })).toContainText(invitee);
  await ownerPage.getByRole("button", { name: `Remove ${admin.email}` }).click();
  await ownerPage.getByRole("dialog", { name: "Remove member?" }).getByRole("button", { name: "Remove" }).click();
  await expect(ownerPage.getByRole("table", { name: "Team members" })).not.toContainText(admin.email);
  await ownerPage.reload();
  await expect(ownerPage.getByRole("region", { name: "Pending invites" })).toHaveCount(0);

  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: "Invite not valid" })).toBeVisible();
  await visitor.context().close();

  await ownerPage.goto(`/t/${team.slug}/settings/audit`);
  const revoked = ownerPage
    .getByRole("table", { name: "Audit log, newest first" })
    .locator("tbody tr")
    .filter({ hasText: "Invite revoked" });
  await expect(revoked).toHaveCount(1);
  const cells = revoked.locator("td, th");
  await expect(cells.nth(1)).toHaveText(owner.email);
  await expect(cells.nth(3)).toContainText(invitee);
  await expect(cells.nth(3)).toContainText("as Admin; inviter removed");
});
