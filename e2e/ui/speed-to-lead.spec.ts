import type { Page } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { findLead } from "../../lib/leads/lead-store";
import { saveRule } from "../../lib/routing/assignment-rules";
import { checkAtBothWidths } from "../support/accessibility-check";
import { authHeaders, CREATE_LEAD, newTeam, newUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Speed to lead on Leads (docs/routing.md "Speed to lead"): leads routed by a round robin, a
// member contacts theirs, and the team's time to first contact appears for everyone.

const card = (page: Page) => page.getByRole("region", { name: "Time to first contact" });
const byOwner = (page: Page) => card(page).getByRole("table", { name: /^Time to first contact by owner/ });

test("two leads routed to two members; one contacts theirs and the time to first contact appears on Leads", async ({
  signInAs,
  request,
}) => {
  const team = await newTeam();
  const admin = await newUser({ team, role: "admin", name: "Adele Admin" });
  const ada = await newUser({ team, role: "member", name: "Ada Able" });
  const ben = await newUser({ team, role: "member", name: "Ben Baker" });
  const input = {
    name: "Everyone",
    enabled: true,
    conditions: [],
    mode: "round_robin" as const,
    userIds: [ada.id, ben.id],
    fallbackUserId: null,
  };
  expect(await saveRule({ teamId: team.id, input, actor: CLI_ACTOR })).toMatchObject({ ok: true });
  const key = await createApiKey({ teamId: team.id, description: "Landing page" });

  const ids: string[] = [];
  for (const name of ["First Lead", "Second Lead"]) {
    const response = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name } });
    expect(response.status(), await response.text()).toBe(201);
    ids.push((await response.json()).lead_id);
  }
  expect((await findLead({ id: ids[0]!, teamId: team.id }))?.ownerId).toBe(ada.id);
  expect((await findLead({ id: ids[1]!, teamId: team.id }))?.ownerId).toBe(ben.id);

  const page = await signInAs(ada);
  await page.goto(`/t/${team.slug}/leads`);
  await expect(card(page)).toContainText("No lead contacted in the last 30 days.");
  await expect(card(page)).toContainText("New right now: 2");
  await expect(card(page).getByText("By owner", { exact: true })).toHaveCount(0);

  await page.getByRole("navigation", { name: "Lead views" }).getByRole("link", { name: "My leads" }).click();
  await expect(page).toHaveURL(/owner=me/);
  const rows = page.getByRole("table", { name: /^Leads/ }).getByRole("row");
  await expect(rows.filter({ hasText: "Second Lead" })).toHaveCount(0);
  await rows.filter({ hasText: "First Lead" }).getByRole("link", { name: "First Lead" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "First Lead" })).toBeVisible();

  const ownership = page.getByRole("region", { name: "Status and owner" });
  await ownership.getByLabel("Change status").selectOption({ label: "Contacted" });
  await ownership.getByRole("button", { name: "Save status" }).click();
  await expect(ownership.getByRole("status").filter({ hasText: "Status set to Contacted." })).toBeVisible();
  expect((await findLead({ id: ids[0]!, teamId: team.id }))?.firstContactedAt).toBeInstanceOf(Date);

  await page.goto(`/t/${team.slug}/leads`);
  await expect(card(page)).toContainText(/7 days: median [^,]+, 90th percentile [^(]+ \(1 lead\)/);
  await expect(card(page)).toContainText(/30 days: median [^,]+, 90th percentile [^(]+ \(1 lead\)/);
  await expect(card(page)).toContainText("New right now: 1");
  await expect(card(page)).not.toContainText("No lead contacted");

  await card(page).getByText("By owner", { exact: true }).click();
  await expect(byOwner(page)).toBeVisible();
  const adaRow = byOwner(page).getByRole("row", { name: /^Ada Able/ });
  await expect(adaRow.getByRole("cell")).toHaveText([/\S/, /\S/, "1", /\S/, /\S/, "1"]);
  await expect(byOwner(page).getByRole("row", { name: /^Ben Baker/ })).toHaveCount(0);
  await checkAtBothWidths(page, "leads: time to first contact, by owner open");

  // Every member sees the team's figures, the admin too.
  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/leads`);
  await expect(card(adminPage)).toContainText("(1 lead)");
});
