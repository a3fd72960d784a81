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

  await test.step("reopened before the closed dialog's late close event arrives, it stays open", async () => {
    // The browser fires "close" as a task after dialog.close(); a loaded machine can run a
    // keypress on the refocused opener first. Made deterministic here: cancel (Escape's
    // event), let React commit, reopen, and only then let tasks run.
    const states = await page.evaluate(async () => {
      const dialog = document.querySelector("dialog")!;
      const opener = [...document.querySelectorAll("button")].find((button) => button.textContent?.trim() === "Generate Key")!;
      const microtasks = async () => {
        for (let i = 0; i < 10; i++) await Promise.resolve();
      };
      opener.click();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const opened = dialog.open;
      dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
      await microtasks();
      const closed = !dialog.open;
      opener.click();
      await microtasks();
      const reopened = dialog.open;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { opened, closed, reopened, stillOpen: dialog.open };
    });
    expect(states).toEqual({ opened: true, closed: true, reopened: true, stillOpen: true });
    await expect(description).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await generateKey.focus();
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
