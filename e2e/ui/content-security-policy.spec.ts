import { expect, test, type Page } from "@playwright/test";
import { BASE_URL, newTeamWithUser, signIn } from "../support/fixtures";

// The page CSP (proxy.ts, lib/http/content-security-policy.ts): scripts run only with the
// response's nonce, so Next's own scripts run and hydrate while a script injected into
// the HTML does not; nothing the app itself loads is refused; pages cannot be framed.

const scriptSrc = (policy: string | null | undefined) =>
  policy
    ?.split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src")) ?? "";
const nonceOf = (policy: string | null | undefined) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc(policy))?.[1];

/** Collects every CSP violation the page reports, from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return violations;
}

test("the home page renders and hydrates under the CSP with no violations", async ({ page }) => {
  const violations = await watchViolations(page);
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.getByRole("heading", { name: "Lead Intake" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});

test("every page's script-src is this origin and a fresh nonce, never 'unsafe-inline'", async () => {
  const nonces = new Set<string>();
  for (const path of ["/", "/signin", "/signin", "/no-such-page", "/invite/not-a-token"]) {
    const response = await fetch(`${BASE_URL}${path}`, { redirect: "manual" });
    const policy = response.headers.get("content-security-policy");
    const directive = scriptSrc(policy);
    expect(directive, path).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{22,}'$/);
    expect(policy, path).not.toContain("'unsafe-inline' 'nonce");
    expect(directive, path).not.toContain("unsafe");
    const nonce = nonceOf(policy)!;
    expect(nonces.has(nonce), `${path}: a nonce is never reused`).toBe(false);
    nonces.add(nonce);
    // Next tags its own scripts with this response's nonce, and only with it.
    const html = await response.text();
    const scriptTags = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scriptTags.length, path).toBeGreaterThan(0);
    for (const tag of scriptTags) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
});

test("a script injected into the page does not run; the app's own scripts still do", async ({ page }) => {
  const violations = await watchViolations(page);
  // Stands in for an HTML injection: the server's response with a script and an inline
  // event handler added, and its CSP header left as sent.
  await page.route("**/signin", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "<body",
      `<script>window.injectedScriptRan = true</script><img src="/no-such.png" onerror="window.injectedHandlerRan = true"><body`,
    );
    await route.fulfill({ response, body: html });
  });
  await page.goto("/signin");
  // Hydrated: the form's client-side validation and submit handler are React's.
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => (window as { injectedScriptRan?: boolean }).injectedScriptRan)).toBeUndefined();
  expect(await page.evaluate(() => (window as { injectedHandlerRan?: boolean }).injectedHandlerRan)).toBeUndefined();
  expect(violations.every((v) => /script-src/.test(v))).toBe(true);
});

test("signed in, the main pages load and work with no CSP violation", async ({ page }) => {
  const { team, user } = await newTeamWithUser("owner");
  const violations = await watchViolations(page);
  await signIn(page, user);
  const pages: [string, string][] = [
    [`/t/${team.slug}/leads`, "Leads"],
    [`/t/${team.slug}/settings/api-keys`, "API Keys"],
    [`/t/${team.slug}/settings/members`, "Members"],
    [`/t/${team.slug}/settings/sources`, "Lead Sources"],
    [`/t/${team.slug}/settings/general`, "General"],
    [`/t/${team.slug}/settings/audit`, "Audit log"],
    [`/t/${team.slug}/settings/routing`, "Lead Routing"],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
  // Client-side navigation (RSC payloads, no new document) is covered too.
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.getByRole("link", { name: "Members" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/settings/members$`));
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});
