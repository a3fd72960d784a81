import type { Locator, Page } from "@playwright/test";
import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { newTeamWithUser, readClipboard } from "../support/fixtures";
import { expect, test } from "../support/test";

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Presses Tab until `target` has focus; fails if it is not reachable that way. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press("Tab");
    if (await isFocused(target)) return;
  }
  throw new Error("not reachable with the Tab key");
}

test("an admin generates a key and copies its secret with the keyboard only", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/api-keys`);

  const generateKey = page.getByRole("button", { name: "Generate Key" });
  await tabTo(page, generateKey);
  // A visible focus ring (focus-visible) on the keyboard-focused button.
  expect(await generateKey.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none");

  const dialog = page.getByRole("dialog", { name: "Generate API key" });
  const description = dialog.getByLabel("Description (optional)");
  await test.step("Escape closes the dialog and gives focus back to its opener", async () => {
    await page.keyboard.press("Enter");
    await expect(description).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(generateKey).toBeFocused();
  });

  await test.step("Tab stays inside the open dialog", async () => {
    await page.keyboard.press("Enter");
    await expect(description).toBeFocused();
    const order = [
      dialog.getByLabel("Expires"),
      // A radio group is one tab stop: its checked radio (a key's default).
      dialog.getByRole("radio", { name: "Create a new lead" }),
      dialog.getByRole("switch", { name: "Run the spam checks" }),
      dialog.getByRole("button", { name: "Cancel" }),
      dialog.getByRole("button", { name: "Generate", exact: true }),
      description,
    ];
    for (const next of order) {
      await page.keyboard.press("Tab");
      await expect(next).toBeFocused();
    }
    await page.keyboard.press("Shift+Tab");
    await expect(order.at(-2)!).toBeFocused();
    for (let i = 0; i < order.length - 1; i++) await page.keyboard.press("Shift+Tab");
    await expect(description).toBeFocused();
  });

  await page.keyboard.type("Keyboard key");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const row = page.getByRole("list", { name: "API keys" }).getByRole("listitem").filter({ hasText: "Keyboard key" });
  await expect(row.getByText("Not Copied", { exact: true })).toBeVisible();
  const [key] = await listApiKeys(team.id);

  const copy = row.getByRole("button", { name: /^Copy secret of key/ });
  await tabTo(page, copy);
  await page.keyboard.press("Enter");
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  expect(await readClipboard(page)).toBe(key!.secretDisplay);
});
