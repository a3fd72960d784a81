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
  const { team, user } = await newTeamWithUser("member");
  const leads = `${origin}/t/${team.slug}/leads`;
  // Only the inputs that must become "/": the others lead to pages of their own.
  const bypasses = CALLBACK_URL_CASES.filter(({ input, expected }) => expected === "/" && input !== "/");
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();

  // Through the form once: the page hands the form the callbackUrl the server made safe, and
  // the form goes there after signing in ("/" sends a member to their team's leads). The form
  // gets "/" for every bypass, so one sign-in proves that path for all of them.
  const [first] = bypasses;
  expect((await page.goto(signInPath(first!.input)))?.status()).toBe(200);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page, JSON.stringify(first!.input)).toHaveURL(leads);

  // Then every bypass as Chromium itself sends it (its URL parser drops tabs and newlines,
  // turns backslashes into slashes, …): signed in, /signin redirects, and the browser must
  // land on the site.
  for (const { input } of bypasses) {
    await page.goto(signInPath(input));
    await expect(page, JSON.stringify(input)).toHaveURL(leads);
  }
  await context.close();
});
