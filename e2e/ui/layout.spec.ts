import type { Locator, Page } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { addMember } from "../../lib/teams/team-store";
import { createUser } from "../../lib/users/user-store";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-changes";
import { authHeaders, CREATE_LEAD, newTeamWithUser, uniqueSlug } from "../support/fixtures";
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
    return (
      [...document.querySelectorAll("body *")]
        // Inside a scroll container of its own (the settings tabs) an element may reach past the edge.
        .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest("nav"))
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}: ${(el.textContent ?? "").slice(0, 40)}`)
    );
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

  /** Whether the element's box lies inside the viewport's width (visible without scrolling sideways). */
  const inView = async (locator: Locator) => {
    await expect(locator).toBeVisible();
    const box = (await locator.boundingBox())!;
    return box.x >= 0 && box.x + box.width <= 390;
  };

  test("long values wrap or truncate with the full text available, and no signed-in page scrolls sideways", async ({
    signInAs,
    request,
  }) => {
    test.setTimeout(180_000);
    const { team, user } = await newTeamWithUser("owner");
    const actor = { userId: user.id, ip: null, via: "web" as const };
    const longSource = `Source ${"s".repeat(93)}`;
    const source = await addLeadSource(team.id, longSource);
    const key = await createApiKey({ teamId: team.id, description: `Key ${"d".repeat(150)}` });
    const longName = "N".repeat(200);
    const created = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: {
        name: longName,
        email: `${"e".repeat(60)}@example.com`,
        source: longSource,
        note: "x".repeat(3000),
        [`field_${"f".repeat(50)}`]: "value",
      },
    });
    expect(created.status()).toBe(201);
    const { lead_id: leadId } = await created.json();
    const twin = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: { name: "Twin", email: `${"e".repeat(60)}@example.com` },
    });
    expect(twin.status()).toBe(201);
    const formId = await createWebForm({
      teamId: team.id,
      settings: {
        name: `Form ${"w".repeat(95)}`,
        allowedOrigins: [`https://${"o".repeat(60)}.example.com`],
        sourceId: source.id,
        successUrl: null,
        challenge: false,
      },
      createdById: user.id,
      actor,
    });
    const endpoint = await createEndpoint({
      teamId: team.id,
      url: `https://hooks.example.com/${"p".repeat(150)}`,
      description: `Hook ${"h".repeat(150)}`,
      events: ["lead.created"],
      actor,
    });
    await addMember({
      teamId: team.id,
      userId: (await createUser({ email: `${"m".repeat(50)}-${uniqueSlug()}@example.test`, password: "a long enough password" })).id,
      role: "member",
    });

    const page = await signInAs(user);
    const t = `/t/${team.slug}`;
    const pages = [
      `${t}/leads`,
      `${t}/leads?duplicates=1&sort=oldest`,
      `${t}/leads/${leadId}`,
      `${t}/leads/${leadId}/merge`,
      `${t}/leads/erase?who=${"e".repeat(60)}%40example.com`,
      `${t}/settings/general`,
      `${t}/settings/members`,
      `${t}/settings/sources`,
      `${t}/settings/api-keys`,
      `${t}/settings/api-keys/${key.keyId}`,
      `${t}/settings/web-forms`,
      `${t}/settings/web-forms/${formId}`,
      `${t}/settings/webhooks`,
      `${t}/settings/webhooks/${endpoint.id}`,
      `${t}/settings/audit`,
      "/account",
      "/teams/new",
    ];
    for (const path of pages) {
      await test.step(path, async () => {
        expect((await page.goto(path))?.status()).toBe(200);
        await expect(page.getByRole("main")).toBeVisible();
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `${path} scrolls sideways; past the edge: ${(await overflowing(page)).join(" | ")}`).toBeLessThanOrEqual(
          innerWidth,
        );
      });
    }
    await page.goto(`${t}/leads`);
    const row = page.getByRole("row").filter({ hasText: leadId });
    await expect(row).toContainText(`${"e".repeat(60)}@example.com`);
    await expect(row.getByRole("link", { name: longName })).toBeVisible();
    // The 200-character name wraps: the date still fits beside it.
    expect(await inView(row.locator("time").filter({ visible: true })), "the date beside a 200-character name").toBe(true);
    await saveScreenshot(page, "lead-list-phone");
    await page.goto(`${t}/settings/api-keys`);
    await saveScreenshot(page, "api-keys-phone");
  });

  test("the header collapses into one row with a Menu holding the sections, the account and Sign out", async ({ signInAs }) => {
    const { team, user } = await newTeamWithUser("admin");
    const page = await signInAs(user);
    await page.goto(`/t/${team.slug}/leads`);
    const header = page.getByRole("banner");
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(header.getByRole("button", { name: "Sign out" })).toBeHidden();
    await expect(header.getByRole("button", { name: /^Switch team/ })).toBeVisible();

    const menu = header.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const nav = header.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(["Leads", "Team Settings"]);
    await expect(nav.getByRole("link", { name: "Leads" })).toHaveAttribute("aria-current", "page");
    await expect(header.getByRole("link", { name: new RegExp(`^Account \\(${user.email}\\)$`) })).toBeVisible();
    await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
    await saveScreenshot(page, "header-menu-phone");
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();

    await menu.click();
    await nav.getByRole("link", { name: "Team Settings" }).click();
    await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/settings/general$`));
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  });

  test("the members' role control and the lead list's name, email and date stay in view", async ({ signInAs, request }) => {
    const { team, user: owner } = await newTeamWithUser("owner");
    const member = await createUser({ email: `${"m".repeat(40)}-${uniqueSlug()}@example.test`, password: "a long enough password" });
    await addMember({ teamId: team.id, userId: member.id, role: "member" });
    const key = await createApiKey({ teamId: team.id, description: "Phone" });
    const created = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: { name: "Ada Lovelace", email: "ada.lovelace@example.com", organization: "Analytical Engines" },
    });
    expect(created.status()).toBe(201);
    const { lead_id: leadId } = await created.json();

    const page = await signInAs(owner);
    await page.goto(`/t/${team.slug}/settings/members`);
    const role = page.getByLabel(`Role of ${member.email}`);
    expect(await inView(role), "the role control is inside the screen").toBe(true);
    expect((await role.boundingBox())!.width).toBeGreaterThanOrEqual(100);
    await expect(role).toHaveValue("member");
    await role.selectOption("admin");
    expect(await inView(page.getByRole("button", { name: `Save role of ${member.email}` }))).toBe(true);
    expect(await inView(page.getByRole("button", { name: `Remove ${member.email}` }))).toBe(true);

    await page.goto(`/t/${team.slug}/leads`);
    const row = page.getByRole("row").filter({ hasText: leadId });
    expect(await inView(row.getByRole("link", { name: "Ada Lovelace" })), "name").toBe(true);
    expect(await inView(row.getByText("ada.lovelace@example.com")), "email").toBe(true);
    expect(await inView(row.locator("time").filter({ visible: true })), "date").toBe(true);
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
