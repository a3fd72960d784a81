import type { APIRequestContext } from "@playwright/test";
import type { NewApiKey } from "../../lib/api-keys/api-key-changes";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { authHeaders, CREATE_LEAD, newTeamWithUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

async function postLead(request: APIRequestContext, key: NewApiKey, data: Record<string, string>): Promise<string> {
  const response = await request.post(CREATE_LEAD, { headers: authHeaders(key), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).lead_id;
}

test("the lead detail shows every field, Extra Fields as text, its submission, and links possible duplicates", async ({
  signInAs,
  request,
}) => {
  const { team, user } = await newTeamWithUser("member");
  const key = await createApiKey({ teamId: team.id, description: "Landing page" });
  const leadId = await postLead(request, key, {
    name: "Ada King Lovelace",
    email: "Ada@Analytical.example",
    phone: "+44 7911 123456",
    mobile_no: "+1 415 555 2671",
    organization: "Analytical Engines Ltd",
    job_title: "Mathematician",
    website: "analytical.example",
    territory: "Europe",
    industry: "Computing",
    annual_revenue: "1200000",
    no_of_employees: "12",
    utm_source: "newsletter",
    utm_medium: "email",
    utm_campaign: "launch",
    favourite_machine: "Difference Engine",
    "<b>note</b>": "<img src=x onerror=alert(1)>",
  });
  const sameEmail = await postLead(request, key, { name: "Augusta Ada", email: "ada@analytical.example" });
  const samePhone = await postLead(request, key, { name: "Charles Babbage", mobile_no: "+447911123456" });
  const unrelated = await postLead(request, key, { name: "Mary Somerville", email: "mary@example.org" });

  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/leads`);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: "Possible duplicate" })).toHaveCount(3);
  await expect(rows.filter({ hasText: unrelated })).not.toContainText("Possible duplicate");
  // Newest first.
  await expect(rows.nth(1)).toContainText(unrelated);
  await expect(rows.nth(4)).toContainText(leadId);

  await saveScreenshot(page, "lead-list");

  await rows.filter({ hasText: leadId }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Ada King Lovelace" })).toBeVisible();
  const field = (section: string, label: string) =>
    page
      .getByRole("region", { name: section })
      .getByRole("term")
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]");
  await expect(field("Contact", "Phone")).toHaveText("+44 7911 123456");
  await expect(field("Contact", "Mobile")).toHaveText("+1 415 555 2671");
  await expect(field("Contact", "Email")).toHaveText("Ada@Analytical.example");
  await expect(field("Organization", "Website")).toHaveText("https://analytical.example");
  await expect(field("Organization", "Annual revenue")).toHaveText("1200000");
  await expect(field("Source and attribution", "Source")).toHaveText("API");
  await expect(field("Source and attribution", "UTM campaign")).toHaveText("launch");
  await expect(field("Source and attribution", "API key")).toHaveText(`${key.keyId} (Landing page)`);

  const extra = page.getByRole("region", { name: "Extra Fields" });
  // By name (code points), the same on both databases.
  await expect(extra.getByRole("term")).toHaveText(["<b>note</b>", "favourite_machine"]);
  await expect(extra.getByRole("definition")).toHaveText(["<img src=x onerror=alert(1)>", "Difference Engine"]);
  await expect(extra.locator("img, b")).toHaveCount(0);

  const submissions = page.getByRole("region", { name: "Submissions" });
  await expect(submissions).toContainText("1 submission");
  await expect(submissions.getByRole("listitem")).toHaveCount(1);
  await expect(submissions.getByRole("listitem")).toContainText(`API key ${key.keyId} (Landing page)`);

  const duplicates = page.getByRole("region", { name: "Possible duplicates" });
  await expect(duplicates.getByRole("listitem")).toHaveCount(2);
  await expect(duplicates.getByRole("listitem").filter({ hasText: sameEmail })).toContainText("same email");
  await expect(duplicates.getByRole("listitem").filter({ hasText: samePhone })).toContainText("same phone");
  await saveScreenshot(page, "lead-detail");

  await duplicates.getByRole("link", { name: "Charles Babbage" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Charles Babbage" })).toBeVisible();
});

test("the lead list searches by name, email and organization prefix and pages by cursor", async ({ signInAs, request }) => {
  const { team, user } = await newTeamWithUser("admin");
  const key = await createApiKey({ teamId: team.id });
  await postLead(request, key, { name: "Zelda Quartz", email: "zq@alpha.example", organization: "Nimbus Ltd" });
  for (let i = 1; i <= 26; i++) await postLead(request, key, { name: `Filler ${String(i).padStart(2, "0")}` });

  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/leads`);
  const body = page.getByRole("table").getByRole("rowgroup").last();
  await expect(body.getByRole("row")).toHaveCount(25);
  await expect(body.getByRole("row").first()).toContainText("Filler 26");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await pagination.getByRole("link", { name: "Older →" }).click();
  await expect(body.getByRole("row")).toHaveText([/Filler 01/, /Zelda Quartz/]);
  await pagination.getByRole("link", { name: "← Newer" }).click();
  await expect(body.getByRole("row")).toHaveCount(25);
  await expect(body.getByRole("row").first()).toContainText("Filler 26");

  const search = page.getByRole("searchbox", { name: "Search leads" });
  for (const query of ["zel", "QUARTZ", "zq@alp", "nimbus"]) {
    await search.fill(query);
    await search.press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(query)}`));
    await expect(body.getByRole("row")).toHaveText([/Zelda Quartz/]);
  }
  await search.fill("elda");
  await search.press("Enter");
  await expect(page.getByRole("heading", { name: "No leads match your search" })).toBeVisible();
});

test("a user of another team gets a 404 for this team's keys, leads and lead details", async ({ signInAs, request }) => {
  const { team } = await newTeamWithUser("owner");
  const key = await createApiKey({ teamId: team.id, description: "Private key" });
  const leadId = await postLead(request, key, { name: "Secret Lead" });
  const { team: otherTeam, user: outsider } = await newTeamWithUser("owner");

  const page = await signInAs(outsider);
  for (const path of [
    `/t/${team.slug}/settings/api-keys`,
    `/t/${team.slug}/leads`,
    `/t/${team.slug}/leads/${leadId}`,
    `/t/${team.slug}/settings/members`,
    `/t/${otherTeam.slug}/leads/${leadId}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByText(key.keyId)).toHaveCount(0);
    await expect(page.getByText("Secret Lead")).toHaveCount(0);
  }
});
