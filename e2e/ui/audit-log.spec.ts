import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { CLI_ACTOR, listAuditEvents, recordAuditEvent } from "../../lib/audit/audit-log";
import { newTeamWithUser, newUser, readClipboard, uniqueSlug } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

const keyRows = (page: import("@playwright/test").Page) => page.getByRole("list", { name: "API keys" }).getByRole("listitem");
const auditRows = (page: import("@playwright/test").Page) =>
  page.getByRole("table", { name: "Audit log, newest first" }).locator("tbody tr");

test("the Audit log tab lists key and member changes with who did them and from which address", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const admin = await newUser({ team, role: "admin" });
  const member = await newUser({ team, role: "member" });
  const invitee = `${uniqueSlug("invitee")}@example.test`;

  const page = await signInAs(admin);
  await test.step("the admin generates, copies and deletes a key", async () => {
    await page.goto(`/t/${team.slug}/settings/api-keys`);
    await page.getByRole("button", { name: "Generate Key" }).click();
    await page.getByLabel("Description (optional)").fill("Audited key");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    const row = keyRows(page).filter({ hasText: "Audited key" });
    await row.getByRole("button", { name: /^Copy secret of key/ }).click();
    await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
    expect(await readClipboard(page)).toMatch(/^team_/);
  });
  const [key] = await listApiKeys(team.id);
  await test.step("deletes it", async () => {
    await keyRows(page)
      .filter({ hasText: "Audited key" })
      .getByRole("button", { name: `Delete API key ${key!.keyId}` })
      .click();
    await page.getByRole("dialog", { name: "Delete API key?" }).getByRole("button", { name: "Delete key" }).click();
    await expect(keyRows(page).filter({ hasText: "Audited key" })).toHaveCount(0);
  });
  await test.step("and invites a member", async () => {
    await page.goto(`/t/${team.slug}/settings/members`);
    await page.getByLabel("Email", { exact: true }).fill(invitee);
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByRole("region", { name: "Pending invites" })).toContainText(invitee);
  });

  await test.step("the owner makes the member an admin", async () => {
    const ownerPage = await signInAs(owner);
    await ownerPage.goto(`/t/${team.slug}/settings/members`);
    await ownerPage.getByLabel(`Role of ${member.email}`).selectOption("admin");
    await ownerPage.getByRole("button", { name: `Save role of ${member.email}` }).click();
    await expect(ownerPage.getByRole("button", { name: `Save role of ${member.email}` })).toHaveCount(0);
  });

  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/settings/audit$`));
  const rows = auditRows(page);
  // Newest first: when, who, action, target, IP address.
  await expect(rows).toHaveCount(5);
  const expected = [
    [owner.email, "Role changed", member.email, "Member → Admin"],
    [admin.email, "Member invited", invitee, "as Member"],
    [admin.email, "API key deleted", key!.keyId],
    [admin.email, "API secret copied", key!.keyId],
    [admin.email, "API key generated", key!.keyId, "Audited key"],
  ];
  for (const [index, [who, action, target, note]] of expected.entries()) {
    const cells = rows.nth(index).locator("td, th");
    await expect(cells.nth(0).locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    await expect(cells.nth(1)).toHaveText(who!);
    await expect(cells.nth(2)).toHaveText(action!);
    await expect(cells.nth(3)).toContainText(target!);
    if (note) await expect(cells.nth(3)).toContainText(note);
    // The e2e server is reached over loopback; serve.mjs records the socket's address.
    await expect(cells.nth(4)).toHaveText("127.0.0.1");
  }
  await saveScreenshot(page, "audit-log");
});

test("a member has no Audit log tab and the server refuses the page", async ({ signInAs }) => {
  const { team } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member" });
  await createApiKey({ teamId: team.id, description: "Recorded" }); // an event the member must not see
  expect(await listAuditEvents(team.id)).toHaveLength(1);

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  const nav = page.getByRole("navigation", { name: "Settings" });
  await expect(nav.getByRole("link", { name: "API Integration" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);

  const response = await page.goto(`/t/${team.slug}/settings/audit`);
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("table", { name: "Audit log, newest first" })).toHaveCount(0);
  await expect(page.getByText("API key generated")).toHaveCount(0);
});

test("the Audit log shows 50 events a page, newest first, and pages on to the older ones", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  for (let i = 0; i < 51; i++) {
    await recordAuditEvent({
      teamId: team.id,
      action: "member.invited",
      actor: CLI_ACTOR,
      details: { email: `p${i}@example.test`, role: "member" },
    });
  }
  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/settings/audit`);
  const rows = auditRows(page);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("p50@example.test");
  await expect(rows.last()).toContainText("p1@example.test");
  await expect(rows.first().locator("td").nth(1)).toHaveText("CLI (operator)");
  await page.getByRole("navigation", { name: "Audit log pages" }).getByRole("link", { name: "Older →" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("p0@example.test");
  await expect(page.getByRole("link", { name: "Older →" })).toHaveCount(0);
  await page.getByRole("link", { name: "← Newest" }).click();
  await expect(rows).toHaveCount(50);
});
