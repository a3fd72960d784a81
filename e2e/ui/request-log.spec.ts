import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Issue 11 in the browser: what a form sent is never lost from sight. A checkbox group
// shows as a list in Extra Fields, a skipped phone shows what was typed, and the key's
// request log shows the failures (a wrong secret, a 422) with their error texts.

test("a member sees checkbox lists, a skipped phone's text and the key's failed requests", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("member");
  const key = await createApiKey({ teamId: team.id, description: "Website form" });
  const post = (headers: Record<string, string>, body: string, type: string) =>
    fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { ...headers, "Content-Type": type }, body });

  const created = await post(
    authHeaders(key),
    "name=Grace+Hopper&phone=12345&country_code=%2B999&interests=Pricing&interests=Demo&interests=Support",
    "application/x-www-form-urlencoded",
  );
  expect(created.status).toBe(201);
  const { lead_id: leadId, message } = (await created.json()) as { lead_id: string; message: string };
  expect(message).toBe("Lead created successfully (skipped invalid fields: phone)");
  expect(
    (await post({ "X-API-Key": key.keyId, "X-API-Secret": `team_${"x".repeat(40)}` }, '{"name":"Ada"}', "application/json")).status,
  ).toBe(401);
  expect((await post(authHeaders(key), '{"email":"not-a-name@example.com"}', "application/json")).status).toBe(422);

  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/leads/${leadId}`);
  const extra = page.getByRole("region", { name: "Extra Fields" });
  await expect(extra.getByRole("list", { name: "interests" }).getByRole("listitem")).toHaveText(["Pricing", "Demo", "Support"]);
  const phone = page
    .getByRole("region", { name: "Contact" })
    .getByRole("term")
    .filter({ hasText: /^Phone$/ })
    .locator("xpath=following-sibling::dd[1]");
  await expect(phone).toHaveText("not a valid number: 12345");

  await page.goto(`/t/${team.slug}/settings/api-keys`);
  const card = page.getByRole("listitem").filter({ hasText: key.keyId });
  await expect(card).toContainText("3 requests");
  await expect(card).toContainText("2 failures");
  await card.getByRole("link", { name: `Request log of key ${key.keyId}, Website form` }).click();

  await expect(page.getByRole("heading", { name: `Request log of Website form ${key.keyId}` })).toBeVisible();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText("422");
  await expect(rows.nth(1)).toContainText("Name is required");
  await expect(rows.nth(1)).toContainText("JSON");
  await expect(rows.nth(2)).toContainText("401");
  await expect(rows.nth(2)).toContainText("Invalid API key");
  await expect(rows.nth(3)).toContainText("201");
  await expect(rows.nth(3)).toContainText("Form (urlencoded)");
  await saveScreenshot(page, "request-log");
  await rows.nth(3).getByRole("link", { name: leadId }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Grace Hopper" })).toBeVisible();
});

test("a key of another team has no request log page under this team", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const { team: other } = await newTeamWithUser("owner");
  const foreignKey = await createApiKey({ teamId: other.id });
  const page = await signInAs(user);
  const response = await page.goto(`/t/${team.slug}/settings/api-keys/${foreignKey.keyId}`);
  expect(response?.status()).toBe(404);
});
