import { randomBytes } from "node:crypto";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { createApiKey, type NewApiKey } from "../../lib/api-keys/api-key-changes";
import { SESSION_MAX_AGE_SECONDS } from "../../lib/auth/session-token";
import { persistentSecret } from "../../lib/setup/runtime-secrets";
import { addMember, createTeam, type Role, type Team } from "../../lib/teams/team-store";
import { createUser, findSessionUser } from "../../lib/users/user-store";

// Test data made through the real service functions, on the same database file as
// the server under test (playwright.config.ts points both at it). Names are unique
// so tests never share state.

export function uniqueSlug(prefix = "t"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

export async function newTeam(options: { defaultPhoneCountry?: string } = {}): Promise<Team> {
  const slug = uniqueSlug();
  return createTeam({ slug, name: `Team ${slug}`, defaultPhoneCountry: options.defaultPhoneCountry });
}

export async function newTeamWithKey(options: { defaultPhoneCountry?: string } = {}): Promise<{ team: Team; key: NewApiKey }> {
  const team = await newTeam(options);
  return { team, key: await createApiKey({ teamId: team.id, description: "e2e" }) };
}

export function authHeaders(key: NewApiKey): Record<string, string> {
  return { "X-API-Key": key.keyId, "X-API-Secret": key.secret };
}

export const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";

export const TEST_PASSWORD = "e2e-password-0123";

export type TestUser = { id: string; email: string; password: string };

/** A new user with a unique email and, when a team is given, that role in it. */
export async function newUser(options: { team?: Team; role?: Role; name?: string } = {}): Promise<TestUser> {
  const email = `${uniqueSlug(options.role ?? "user")}@example.test`;
  const user = await createUser({ email, password: TEST_PASSWORD, name: options.name });
  if (options.team) await addMember({ teamId: options.team.id, userId: user.id, role: options.role ?? "member" });
  return { id: user.id, email: user.email, password: TEST_PASSWORD };
}

/** A new team and one user holding `role` in it. */
export async function newTeamWithUser(role: Role): Promise<{ team: Team; user: TestUser }> {
  const team = await newTeam();
  return { team, user: await newUser({ team, role }) };
}

/**
 * Signs `user` in as the sign-in form leaves them: the session cookie the server issues
 * (a next-auth JWT with the user's session version, signed with the server's secret, which
 * scripts/start.ts keeps in DATA_DIR/auth.secret), then the home page. A form sign-in costs
 * a journey (about 1.6 s, twice that on a loaded machine) in each of some eighty browser
 * tests; the form itself, its cookie and its redirects are tested through the form
 * (signIn below: e2e/ui/sign-in*.spec.ts, sessions.spec.ts; accessibility.spec.ts checks the form).
 */
export async function signInWithSession(context: BrowserContext, page: Page, user: TestUser): Promise<void> {
  const session = await findSessionUser(user.id);
  if (!session) throw new Error(`No user ${user.email} to sign in`);
  const secret = process.env.NEXTAUTH_SECRET || persistentSecret(process.env.DATA_DIR!, "auth.secret");
  const token = { sub: session.id, email: session.email, name: session.name, sv: session.sessionVersion };
  const value = await encode({ token, secret, maxAge: SESSION_MAX_AGE_SECONDS });
  const expires = Math.floor(Date.now() / 1000) + SESSION_MAX_AGE_SECONDS;
  await context.addCookies([{ name: "next-auth.session-token", value, url: BASE_URL, httpOnly: true, sameSite: "Lax", expires }]);
  await page.goto("/");
  await expect(page).not.toHaveURL(/\/signin/);
}

/** Signs in through the real /signin form. */
export async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/signin/);
}

export function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The shared server's address, for tests that need plain fetch or sockets (set by playwright.config.ts). */
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT}`;
