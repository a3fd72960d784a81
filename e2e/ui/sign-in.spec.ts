import { newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

test("sign-in: a wrong password is refused, a protected page returns after sign-in, sign-out ends the session", async ({ page }) => {
  const { team, user } = await newTeamWithUser("member");
  const keysPage = `/t/${team.slug}/settings/api-keys`;

  await page.goto(keysPage);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);

  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Next.js keeps an empty route announcer with role alert on every page.
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Incorrect email or password.");
  await expect(page).toHaveURL(/\/signin/);

  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPage}$`));
  await expect(page.getByRole("heading", { name: "API Keys", level: 2 })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto(keysPage);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
});

test("an absolute callbackUrl never leads off-site after sign-in", async ({ page }) => {
  const { user } = await newTeamWithUser("member");
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("https://evil.example/")}`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/t\/[\w-]+\/leads$/);
});
