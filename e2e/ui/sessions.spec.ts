import { execFileSync } from "node:child_process";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// A session ends on the server (docs/security.md "Sessions"): a copy of the session
// cookie taken before sign-out, or before the operator ended the user's sessions, signs
// nobody in afterwards, in a browser or over plain HTTP.

function usersCli(...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/users.ts", ...args], { env: process.env, encoding: "utf8" });
}

test("a session cookie saved before sign-out is refused afterwards", async ({ browser, baseURL, signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const leadsPage = `/t/${team.slug}/leads`;
  const page = await signInAs(user, { form: true });
  const saved = await page.context().cookies();
  const sessionCookie = saved.find((cookie) => cookie.name.includes("next-auth.session-token"));
  expect(sessionCookie, "signed in with a session cookie").toBeDefined();
  // Twelve hours, not thirty days.
  expect(sessionCookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(12 * 60 * 60 * 1000);
  expect(sessionCookie!.expires * 1000 - Date.now()).toBeGreaterThan(11 * 60 * 60 * 1000);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  const replay = await browser.newContext({ baseURL });
  try {
    await replay.addCookies(saved);
    const replayPage = await replay.newPage();
    await replayPage.goto(leadsPage);
    await expect(replayPage).toHaveURL(/\/signin\?callbackUrl=/);
    await expect(replayPage.getByRole("button", { name: "Sign in" })).toBeVisible();
  } finally {
    await replay.close();
  }

  const overHttp = await fetch(`${baseURL}${leadsPage}`, {
    headers: { Cookie: `${sessionCookie!.name}=${sessionCookie!.value}` },
    redirect: "manual",
  });
  expect(overHttp.status).toBe(307);
  expect(overHttp.headers.get("location")).toContain("/signin?callbackUrl=");

  // Signing in again works.
  const again = await signInAs(user, { form: true });
  await again.goto(leadsPage);
  await expect(again.getByRole("heading", { name: "Leads", level: 1 })).toBeVisible();
});

test("Sign out works before the page's scripts run (JavaScript off) and ends every session of the user", async ({
  browser,
  baseURL,
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("member");
  const leadsPage = `/t/${team.slug}/leads`;
  const other = await signInAs(user, { form: true });
  const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    await noScript.addCookies(await (await signInAs(user, { form: true })).context().cookies());
    const page = await noScript.newPage();
    await page.goto(leadsPage);
    await expect(page.getByRole("heading", { name: "Leads", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin$/);
    const left = (await noScript.cookies()).filter((cookie) => cookie.name.includes("next-auth.session-token"));
    expect(left, "the session cookie is cleared").toEqual([]);
  } finally {
    await noScript.close();
  }
  await other.goto(leadsPage);
  await expect(other).toHaveURL(/\/signin\?callbackUrl=/);
});

test("the operator's end-sessions command signs the user out everywhere, audited", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const other = await newTeamWithUser("owner");
  const leadsPage = `/t/${team.slug}/leads`;
  const [laptop, phone] = [await signInAs(user, { form: true }), await signInAs(user, { form: true })];
  const otherPage = await signInAs(other.user, { form: true });

  expect(usersCli("end-sessions", user.email.toUpperCase(), "--json").trim()).toBe(JSON.stringify({ sessions_ended: user.email }));

  for (const page of [laptop, phone]) {
    await page.goto(leadsPage);
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  }
  // Another user's session is untouched.
  await otherPage.goto(`/t/${other.team.slug}/leads`);
  await expect(otherPage).toHaveURL(new RegExp(`/t/${other.team.slug}/leads$`));

  const events = await listAuditEvents(team.id);
  expect(events.map((e) => [e.action, e.via, e.targetId])).toEqual([["member.sessions_ended", "cli", user.id]]);
  expect(() => usersCli("end-sessions", "nobody-here@example.test")).toThrow(/No user "nobody-here@example.test"/);
});
