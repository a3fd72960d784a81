import { expect, test } from "@playwright/test";

// The page CSP (next.config.ts) must not break the app: Next's inline bootstrap scripts
// and styles run, nothing is refused, and the page cannot be framed.
test("the home page renders and hydrates under the CSP with no violations", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.getByRole("heading", { name: "Lead Intake" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});
