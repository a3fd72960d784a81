import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { maskSecret, secretPrefix } from "../../lib/api-keys/secret";
import { newTeamWithUser, newUser, readClipboard } from "../support/fixtures";
import { expect, test } from "../support/test";

// Copy-once holds whichever way the secret leaves the page: the Copy button, Ctrl+C on a
// selection, or the context menu's Copy (document.execCommand("copy") on a selection, which
// is what that menu item runs). Each counts as the one copy, masks the secret at once and
// is recorded; and a key the CLI printed is born copied.

const keyRow = (page: Page, description: string) =>
  page.getByRole("list", { name: "API keys" }).getByRole("listitem").filter({ hasText: description });

/** Selects the whole secret the way a mouse would (a range over the element's text). */
async function selectSecret(page: Page, description: string): Promise<void> {
  await keyRow(page, description)
    .getByTestId("api-secret")
    .evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
}

async function expectCopiedOnce(page: Page, options: { teamId: string; description: string; secret: string; by: string }) {
  const row = keyRow(page, options.description);
  const masked = maskSecret(secretPrefix(options.secret));
  // At once, before any reload: masked, and the button is spent.
  await expect(row.getByText(masked, { exact: true })).toBeVisible();
  await expect(row.getByText(options.secret, { exact: true })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  expect(await readClipboard(page)).toBe(options.secret);
  await page.reload();
  await expect(row.getByText(masked, { exact: true })).toBeVisible();
  await expect(row.getByText("Not Copied", { exact: true })).toHaveCount(0);
  await expect(row.getByRole("definition").filter({ hasText: options.by })).toHaveText(
    new RegExp(`^${options.by.replace(/[.]/g, "\\.")} · (just now|\\d+ minutes? ago)$`),
  );
  const [key] = (await listApiKeys(options.teamId)).filter((k) => k.description === options.description);
  expect(key!.copied).toBe(true);
  const events = await listAuditEvents(options.teamId);
  expect(events.filter((e) => e.action === "api_key.secret_copied" && e.targetId === key!.keyId).map((e) => e.actorEmail)).toEqual([
    options.by,
  ]);
}

test("the Copy button copies once, masks at once, and the card says who copied it and when", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const key = await createApiKey({ teamId: team.id, description: "Button copy" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  const copy = keyRow(page, "Button copy").getByRole("button", { name: `Copy secret of key ${key.keyId.slice(0, 4)}…, Button copy` });
  await copy.click();
  // Focus does not fall to the page: it moves to the (now masked) secret.
  await expect(keyRow(page, "Button copy").getByTestId("api-secret")).toBeFocused();
  await expectCopiedOnce(page, { teamId: team.id, description: "Button copy", secret: key.secret, by: user.email });
});

test("Ctrl+C on a selection of the secret is the one copy", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("admin");
  const key = await createApiKey({ teamId: team.id, description: "Keyboard copy" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await selectSecret(page, "Keyboard copy");
  await page.keyboard.press("Control+C");
  await expectCopiedOnce(page, { teamId: team.id, description: "Keyboard copy", secret: key.secret, by: user.email });
});

test("the context menu's Copy (execCommand on a selection) is the one copy, also when the selection is wider", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const key = await createApiKey({ teamId: team.id, description: "Menu copy" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  // The whole card selected (like a triple-click that runs over): still the one copy.
  await keyRow(page, "Menu copy").evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
  });
  expect(await page.evaluate(() => document.execCommand("copy"))).toBe(true);
  const row = keyRow(page, "Menu copy");
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  expect(await readClipboard(page)).toContain(key.secret);
  await page.reload();
  await expect(row.getByText(maskSecret(secretPrefix(key.secret)), { exact: true })).toBeVisible();
  const events = await listAuditEvents(team.id);
  expect(events.filter((e) => e.action === "api_key.secret_copied").map((e) => e.actorEmail)).toEqual([user.email]);
});

test("copying part of the secret copies nothing and leaves it uncopied", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("admin");
  const key = await createApiKey({ teamId: team.id, description: "Partial copy" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.evaluate(() => navigator.clipboard.writeText("before"));
  await keyRow(page, "Partial copy")
    .getByTestId("api-secret")
    .evaluate((element) => {
      const range = document.createRange();
      range.setStart(element.firstChild!, 0);
      range.setEnd(element.firstChild!, 10);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    });
  await page.keyboard.press("Control+C");
  const row = keyRow(page, "Partial copy");
  await expect(row.getByText("Select the whole secret, or use its Copy button: a secret is copied once, in full.")).toBeVisible();
  expect(await readClipboard(page)).toBe("before");
  await page.reload();
  await expect(row.getByText(key.secret, { exact: true })).toBeVisible();
  await expect(row.getByText("Not Copied", { exact: true })).toBeVisible();
});

test("a key made with npm run keys is born copied: masked for every member, Generated by CLI (operator)", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member" });
  const printed = JSON.parse(
    execFileSync(
      process.execPath,
      ["--import", "tsx", "scripts/keys.ts", "create", "--team", team.slug, "--description", "Printed once", "--json"],
      {
        env: process.env,
        encoding: "utf8",
      },
    ),
  );
  for (const user of [member, admin]) {
    const page = await signInAs(user);
    await page.goto(`/t/${team.slug}/settings/api-keys`);
    const row = keyRow(page, "Printed once");
    await expect(row.getByText("Generated by CLI (operator)")).toBeVisible();
    await expect(row.getByText(maskSecret(secretPrefix(printed.secret)), { exact: true })).toBeVisible();
    await expect(row.getByText(printed.secret)).toHaveCount(0);
    await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
    await expect(row.getByRole("definition").filter({ hasText: "CLI (operator) ·" })).toBeVisible();
  }
  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/settings/audit`);
  const rows = adminPage.getByRole("table", { name: "Audit log, newest first" }).locator("tbody tr");
  await expect(rows.filter({ hasText: "API secret shown to the operator" })).toContainText("CLI (operator)");
  await expect(rows.filter({ hasText: "API secret shown to the operator" })).toContainText(printed.key_id);
});
