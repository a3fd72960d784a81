import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_ADMIN } from "../support/demo-admin";
import { startServer, type ServerProcess } from "../support/server-process";

// Failed sign-ins (docs/operations.md "Abuse limits, Redis and proxies"), on a server of this file's own with small limits:
// 3 failures per email and address, 8 per address. Every attempt comes from 127.0.0.1.

test.describe.configure({ mode: "serial", timeout: 180_000 });

const INCORRECT = "Incorrect email or password.";
const THROTTLED = /^Too many failed sign-in attempts\. Try again in 15 minutes\.$/;

let server: ServerProcess;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({ env: { SIGN_IN_FAILURES_PER_EMAIL_AND_IP: "3", SIGN_IN_FAILURES_PER_IP: "8" } });
});
test.afterAll(async () => server?.stop());

async function signInPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}/signin`);
  return page;
}

/** Submits the form and returns the message it shows, or null when the sign-in went through. */
async function attempt(page: Page, email: string, password: string): Promise<string | null> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The click clears the last message and shows "Signing in…" until the answer.
  await expect(page.getByRole("button", { name: "Signing in…" })).toHaveCount(0);
  // Next.js keeps an empty route announcer with role alert on every page.
  const message = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(message.or(page.getByRole("heading", { name: "Leads", exact: true }))).toBeVisible();
  return (await message.count()) ? await message.textContent() : null;
}

function jsonLines(event: string): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test(
  "failures per email and address: a success clears them; once spent even the right password waits",
  { tag: "@own-server" },
  async ({ browser }) => {
    const page = await signInPage(browser);
    expect(await attempt(page, DEMO_ADMIN.email, "wrong-1")).toBe(INCORRECT);
    expect(await attempt(page, DEMO_ADMIN.email, "wrong-2")).toBe(INCORRECT);
    expect(await attempt(page, DEMO_ADMIN.email, DEMO_ADMIN.password)).toBeNull();

    // The success above forgot the two failures: three more are each answered as wrong.
    const again = await signInPage(browser);
    for (const password of ["wrong-3", "wrong-4", "wrong-5"]) {
      expect(await attempt(again, DEMO_ADMIN.email, password)).toBe(INCORRECT);
    }
    expect(await attempt(again, DEMO_ADMIN.email, DEMO_ADMIN.password)).toMatch(THROTTLED);
    await expect(again).toHaveURL(/\/signin/);
    // Server log lines arrive through a pipe, possibly after the page's answer: poll.
    await expect
      .poll(() => jsonLines("rate_limit.exceeded"))
      .toEqual([expect.objectContaining({ level: "warn", limit: "sign_in_failures_per_email_and_ip", ip: "127.0.0.1" })]);
  },
);

test("failures per address, whatever the email: once spent, every email waits", { tag: "@own-server" }, async ({ browser }) => {
  // 5 failures so far from this address; 3 more spend its 8.
  const page = await signInPage(browser);
  for (const email of ["first@example.com", "second@example.com", "third@example.com"]) {
    expect(await attempt(page, email, "wrong")).toBe(INCORRECT);
  }
  expect(await attempt(page, "fourth@example.com", "wrong")).toMatch(THROTTLED);
  await expect.poll(() => jsonLines("rate_limit.exceeded").at(-1)).toMatchObject({ limit: "sign_in_failures_per_ip", ip: "127.0.0.1" });
});

test("sign-in failures are logged with the address, never the email or the password", { tag: "@own-server" }, async () => {
  await expect.poll(() => jsonLines("sign_in.failed").length).toBe(8);
  const failures = jsonLines("sign_in.failed");
  for (const line of failures) expect(Object.keys(line).sort()).toEqual(["event", "ip", "level", "time"]);
  const logged = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .join("\n");
  for (const text of [DEMO_ADMIN.email, "first@example.com", "wrong-3", DEMO_ADMIN.password]) {
    expect(logged).not.toContain(text);
  }
});
