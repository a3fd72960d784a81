import type { Page } from "@playwright/test";
import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { authHeaders, CREATE_LEAD, newTeamWithUser, newUser } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { expect, test } from "../support/test";

// Renaming, expiring and rolling keys in the browser (owners and admins; audited). The
// time rules themselves (works until the expiry, not after) are tested over HTTP on a test
// clock in e2e/api/key-expiry.spec.ts.

const keyRows = (page: Page) => page.getByRole("list", { name: "API keys" }).getByRole("listitem");
const name = (keyId: string, description: string) => `key ${keyId.slice(0, 4)}…, ${description}`;

test("an admin renames a key, gives it an expiry, and rolls it: the old key is refused at once, the new one works", async ({
  signInAs,
  request,
}) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const key = await createApiKey({ teamId: team.id, description: "Old form" });
  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/api-keys`);

  await test.step("rename and set an expiry of 7 days", async () => {
    await page.getByRole("button", { name: `Edit ${name(key.keyId, "Old form")}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit API key" });
    await dialog.getByLabel("Description").fill("Website form");
    await dialog.getByLabel("Expires").selectOption({ label: "In 7 days" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const row = keyRows(page).filter({ hasText: "Website form" });
    await expect(row.getByRole("heading", { name: "Website form" })).toBeVisible();
    await expect(row.getByText(/^Expires in 7 days · /)).toBeVisible();
  });

  await test.step("roll it with the old key expiring now", async () => {
    await page.getByRole("button", { name: `Roll ${name(key.keyId, "Website form")}` }).click();
    const dialog = page.getByRole("dialog", { name: "Roll API key" });
    await dialog.getByLabel("The old key stops working").selectOption({ label: "Now" });
    await dialog.getByRole("button", { name: "Roll key" }).click();
    await expect(dialog).toBeHidden();
    await expect(keyRows(page).filter({ hasText: "Website form" })).toHaveCount(2);
  });

  const keys = await listApiKeys(team.id);
  const replacement = keys.find((k) => k.keyId !== key.keyId)!;
  expect(replacement.description).toBe("Website form");
  expect(replacement.copied).toBe(false);
  const oldRow = keyRows(page).filter({ hasText: key.keyId });
  await expect(oldRow.getByText("Expired", { exact: true })).toBeVisible();
  await expect(oldRow.getByRole("button", { name: /^Roll / })).toHaveCount(0);

  const refused = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "Old key" } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toBe("Invalid API key");
  const newRow = keyRows(page).filter({ hasText: replacement.keyId });
  await newRow.getByRole("button", { name: `Copy secret of ${name(replacement.keyId, "Website form")}` }).click();
  await expect(newRow.getByRole("button", { name: "Copied" })).toBeDisabled();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  const created = await request.post(CREATE_LEAD, {
    headers: { "X-API-Key": replacement.keyId, "X-API-Secret": secret },
    data: { name: "New key" },
  });
  expect(created.status()).toBe(201);

  const events = (await listAuditEvents(team.id)).map((e) => [e.action, e.targetId]);
  expect(events).toEqual(
    expect.arrayContaining([
      ["api_key.renamed", key.keyId],
      ["api_key.expiry_set", key.keyId],
      ["api_key.rolled", key.keyId],
      ["api_key.generated", replacement.keyId],
    ]),
  );
  await page.goto(`/t/${team.slug}/settings/audit`);
  const audit = page.getByRole("table", { name: "Audit log, newest first" });
  await expect(audit.locator("tbody tr").filter({ hasText: "API key renamed" })).toContainText('"Old form" → "Website form"');
  await expect(audit.locator("tbody tr").filter({ hasText: "API key rolled" })).toContainText(`replaced by ${replacement.keyId}`);
});

test("a key can be generated with an expiry", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.getByRole("button", { name: "Generate Key" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate API key" });
  await dialog.getByLabel("Description (optional)").fill("Campaign");
  await dialog.getByLabel("Expires").selectOption({ label: "In 30 days" });
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  await expect(
    keyRows(page)
      .filter({ hasText: "Campaign" })
      .getByText(/^Expires in 4 weeks · /),
  ).toBeVisible();
  const [key] = await listApiKeys(team.id);
  expect(key!.expiresAt!.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3_600_000);
});

test("a member can neither rename nor roll a key, even by a forged call", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member" });
  const key = await createApiKey({ teamId: team.id, description: "Guarded" });

  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/settings/api-keys`);
  await adminPage.getByRole("button", { name: `Edit ${name(key.keyId, "Guarded")}` }).click();
  const edit = await recordAction(adminPage, () =>
    adminPage.getByRole("dialog", { name: "Edit API key" }).getByRole("button", { name: "Save" }).click(),
  );
  await adminPage.getByRole("button", { name: `Roll ${name(key.keyId, "Guarded")}` }).click();
  await adminPage
    .getByRole("dialog", { name: "Roll API key" })
    .getByLabel("The old key stops working")
    .selectOption({ label: "In 7 days" });
  const roll = await recordAction(adminPage, () =>
    adminPage.getByRole("dialog", { name: "Roll API key" }).getByRole("button", { name: "Roll key" }).click(),
  );
  const before = await listApiKeys(team.id);

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await expect(page.getByRole("button", { name: /^(Edit|Roll) key/ })).toHaveCount(0);
  for (const forged of [edit, roll]) {
    const answer = await replayAction(page, forged, forged.body.replace("Guarded", "Forged"));
    expect(answer.text).toContain("Your role in this team does not allow this.");
  }
  const after = await listApiKeys(team.id);
  expect(after.map((k) => [k.keyId, k.description, k.expiresAt?.toISOString()])).toEqual(
    before.map((k) => [k.keyId, k.description, k.expiresAt?.toISOString()]),
  );
});
