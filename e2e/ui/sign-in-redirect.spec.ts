import { CALLBACK_URL_CASES } from "../../lib/auth/callback-url-cases";
import { BASE_URL as baseURL, newTeamWithUser, signIn } from "../support/fixtures";
import { expect, test } from "../support/test";

// Every known open-redirect bypass of callbackUrl (lib/auth/callback-url-cases.ts), sent
// raw in the query string: over HTTP, as a signed-out visitor (the sign-in page renders)
// and as a signed-in one (the page redirects); and in Chromium, signing in through the form.
// Never off-origin, never a 5xx.

const origin = new URL(baseURL).origin;
const signInPath = (input: string) => `/signin?callbackUrl=${encodeURIComponent(input)}`;

test("over HTTP, /signin answers every callbackUrl without a 5xx and redirects only within the site", async ({ browser }) => {
  const { user } = await newTeamWithUser("member");
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, user);
  const anonymous = (await browser.newContext({ baseURL })).request;
  for (const { input, expected } of CALLBACK_URL_CASES) {
    const label = JSON.stringify(input);
    const signedOut = await anonymous.get(signInPath(input), { maxRedirects: 0 });
    expect(signedOut.status(), label).toBe(200);

    const signedIn = await context.request.get(signInPath(input), { maxRedirects: 0 });
    expect(signedIn.status(), label).toBeGreaterThanOrEqual(300);
    expect(signedIn.status(), label).toBeLessThan(400);
    const location = signedIn.headers().location ?? "";
    expect(new URL(location, baseURL).origin, label).toBe(origin);
    expect(location, label).toBe(expected);
  }
  // The issue's own examples, as they were sent.
  for (const raw of ["%2F%09%2Fevil.example", "%2F%09%5Cevil.example", "%0A", "%0D", "%00", "%2F%0A%2Fevil.example"]) {
    expect((await anonymous.get(`/signin?callbackUrl=${raw}`, { maxRedirects: 0 })).status(), raw).toBe(200);
    const signedIn = await context.request.get(`/signin?callbackUrl=${raw}`, { maxRedirects: 0 });
    expect(signedIn.headers().location, raw).toBe("/");
  }
  await context.close();
});

test("in Chromium, signing in with a bypass as callbackUrl stays on the site", async ({ browser }) => {
  test.slow();
  const { team, user } = await newTeamWithUser("member");
  // Only the inputs that must become "/": the others lead to pages of their own.
  const bypasses = CALLBACK_URL_CASES.filter(({ input, expected }) => expected === "/" && input !== "/");
  for (const { input } of bypasses) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const response = await page.goto(signInPath(input));
    expect(response?.status(), JSON.stringify(input)).toBe(200);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // "/" sends a member to their team's leads.
    await expect(page, JSON.stringify(input)).toHaveURL(`${origin}/t/${team.slug}/leads`);
    await context.close();
  }
});
