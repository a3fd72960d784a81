import type { Page } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-store";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { authHeaders, CREATE_LEAD, newTeamWithUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Layout, errors and landmarks: the skip link, a not-found page with the app's header, the
// favicon, long values on a phone, an inline error when a server action cannot be reached,
// and the endpoint panel's examples (PHP, the team's own source).

/** The elements that stick out past the right edge (empty when the page does not scroll sideways). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll("body *")]
      // Inside a scroll container of its own (the settings tabs) an element may reach past the edge.
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest("nav"))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}: ${(el.textContent ?? "").slice(0, 40)}`);
  });

test("the first Tab stop skips to the page's one main landmark", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("admin");
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/leads`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  await expect(page.getByRole("main")).toHaveCount(1);
});

test("a page that does not exist answers 404 with the app's header; the favicon is served", async ({ page }) => {
  const response = await page.goto("/no-such-page-at-all");
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("banner").getByRole("link", { name: "Lead Intake" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("main")).toHaveCount(1);

  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toMatch(/^\/icon\.svg/);
  const icon = await page.request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});

test.describe("at 390 px (a phone)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("long values wrap or truncate with the full text available, and no page scrolls sideways", async ({ signInAs, request }) => {
    const { team, user } = await newTeamWithUser("owner");
    const longSource = `Source ${"s".repeat(93)}`;
    await addLeadSource(team.id, longSource);
    const key = await createApiKey({ teamId: team.id, description: `Key ${"d".repeat(150)}` });
    const longName = "N".repeat(200);
    const created = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: { name: longName, email: `${"e".repeat(60)}@example.com`, source: longSource, note: "x".repeat(3000), [`field_${"f".repeat(50)}`]: "value" },
    });
    expect(created.status()).toBe(201);
    const { lead_id: leadId } = await created.json();

    const page = await signInAs(user);
    for (const path of [`/t/${team.slug}/leads`, `/t/${team.slug}/leads/${leadId}`, `/t/${team.slug}/settings/sources`, `/t/${team.slug}/settings/api-keys`, `/t/${team.slug}/settings/members`]) {
      await test.step(path, async () => {
        await page.goto(path);
        await expect(page.getByRole("main")).toBeVisible();
        expect(await overflowing(page)).toEqual([]);
      });
    }
    await page.goto(`/t/${team.slug}/leads`);
    const row = page.getByRole("row").filter({ hasText: leadId });
    await expect(row).toContainText(`${"e".repeat(60)}@example.com`);
    await expect(row.getByRole("link", { name: longName })).toBeVisible();
    await saveScreenshot(page, "lead-list-phone");
    await page.goto(`/t/${team.slug}/settings/api-keys`);
    await saveScreenshot(page, "api-keys-phone");
  });
});

test("a server action that cannot reach the server shows an inline error and keeps the page", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("admin");
  const key = await createApiKey({ teamId: team.id, description: "Offline edit" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.getByRole("button", { name: `Edit key ${key.keyId.slice(0, 4)}…, Offline edit` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit API key" });
  await dialog.getByLabel("Description").fill("Never saved");
  // The network goes down: every server action request fails.
  await page.route("**/*", (route) => (route.request().headers()["next-action"] ? route.abort("internetdisconnected") : route.continue()));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("The server could not be reached; nothing was changed. Try again.");
  await expect(dialog.getByLabel("Description")).toHaveValue("Never saved");
});

test("the endpoint panel's examples include PHP and name a source the team has, or none", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  await createApiKey({ teamId: team.id, description: "Snippets" });
  const page = await signInAs(user);
  const panel = page.getByRole("complementary", { name: "How to call this endpoint" });
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await expect(panel.getByRole("tabpanel")).not.toContainText('"source"');
  await panel.getByRole("tab", { name: "PHP" }).click();
  await expect(panel.getByRole("tabpanel")).toContainText("curl_init(");
  await expect(panel.getByRole("tabpanel")).toContainText("getenv('LEAD_INTAKE_API_SECRET')");

  await addLeadSource(team.id, "Landing page");
  await page.reload();
  await expect(panel.getByRole("tabpanel")).toContainText('"source":"Landing page"');
});
