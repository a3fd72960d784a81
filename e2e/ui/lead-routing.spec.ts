import type { APIRequestContext, Page } from "@playwright/test";
import type { NewApiKey } from "../../lib/api-keys/api-key-changes";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { CLI_ACTOR, listAuditEvents } from "../../lib/audit/audit-log";
import { findLead } from "../../lib/leads/lead-store";
import { readTeamRouting, saveRule } from "../../lib/routing/assignment-rules";
import { checkAtBothWidths } from "../support/accessibility-check";
import { saveScreenshot } from "../support/screenshots";
import { authHeaders, CREATE_LEAD, newTeam, newUser, newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Settings → Lead Routing (docs/routing.md): owners and admins build the assignment rules, set
// the team's fallback and test where a lead would go; the intake then assigns new leads by them.

const rulesList = (page: Page) => page.getByRole("list", { name: "Assignment rules, first first" });
const ruleItem = (page: Page, name: string) =>
  rulesList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: new RegExp(`^Rule \\d+: ${name}$`) }) });
const testBox = (page: Page) => page.getByRole("region", { name: "Test a lead" });

/** Tests `body` (an object, sent as its JSON, or the text as typed) in the "Test a lead" box. */
async function testLead(page: Page, body: Record<string, string> | string, arrives?: string): Promise<void> {
  await testBox(page)
    .getByLabel("The lead, as create_lead's JSON body")
    .fill(typeof body === "string" ? body : JSON.stringify(body));
  if (arrives) await testBox(page).getByLabel("Arrives through").selectOption({ label: arrives });
  await testBox(page).getByRole("button", { name: "Test lead" }).click();
}

async function postLead(request: APIRequestContext, key: NewApiKey, data: Record<string, string>): Promise<string> {
  const response = await request.post(CREATE_LEAD, { headers: authHeaders(key), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).lead_id;
}

test("an admin builds a round-robin rule; two leads go to its two members in turn, and a member finds theirs under My leads", async ({
  signInAs,
  request,
}) => {
  const team = await newTeam();
  const admin = await newUser({ team, role: "admin", name: "Adele Admin" });
  const ada = await newUser({ team, role: "member", name: "Ada Able" });
  const ben = await newUser({ team, role: "member", name: "Ben Baker" });
  const key = await createApiKey({ teamId: team.id, description: "Landing page" });

  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/general`);
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Lead Routing" }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/settings/routing$`));
  await expect(page.getByRole("heading", { level: 2, name: "Lead Routing" })).toBeVisible();

  await test.step("builds the rule: UTM source is one of google, bing; round robin over Ada and Ben", async () => {
    await page.getByRole("button", { name: "Add a rule" }).click();
    const editor = page.getByRole("form", { name: "Add a rule" });
    await editor.getByLabel("Name", { exact: true }).fill("Google Ads");
    await expect(editor.getByLabel("Enabled (a disabled rule is skipped)")).toBeChecked();
    await editor.getByRole("button", { name: "Add a condition" }).click();
    const condition = editor.getByRole("group", { name: "Condition 1" });
    await expect(condition.getByLabel("Field")).toBeFocused();
    await condition.getByLabel("Field").selectOption({ label: "UTM source" });
    await condition.getByLabel("Operator").selectOption({ label: "is one of" });
    await condition.getByLabel("Values").fill("google, bing");
    await editor.getByRole("radio", { name: "Round robin" }).check();
    const rotation = editor.getByRole("group", { name: "Members, in turn order" });
    await rotation.getByRole("checkbox", { name: `Ada Able (${ada.email})` }).check();
    await rotation.getByRole("checkbox", { name: `Ben Baker (${ben.email})` }).check();
    await expect(editor.getByLabel("If nobody it names is on duty")).toHaveValue("");
    await editor.getByRole("button", { name: "Save rule" }).click();
    await expect(editor).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add a rule" })).toBeFocused();
  });

  const rule = ruleItem(page, "Google Ads");
  await expect(rule).toContainText("UTM source is one of google, bing");
  await expect(rule).toContainText("Round robin: Ada Able, Ben Baker");
  await expect(rule).toContainText("Enabled");
  const [stored] = (await readTeamRouting(team.id)).rules;
  expect([stored?.name, stored?.mode, stored?.userIds, stored?.fallbackUserId]).toEqual([
    "Google Ads",
    "round_robin",
    [ada.id, ben.id],
    null,
  ]);
  expect(stored?.conditions).toEqual([{ field: "utm_source", op: "one_of", values: ["google", "bing"] }]);

  await test.step("the page passes axe with the rule listed and its editor open", async () => {
    await rule.getByRole("button", { name: "Edit rule Google Ads" }).click();
    const editor = page.getByRole("form", { name: "Edit rule Google Ads" });
    await expect(editor.getByLabel("Name", { exact: true })).toHaveValue("Google Ads");
    await expect(editor.getByRole("group", { name: "Condition 1" }).getByLabel("Values")).toHaveValue("google, bing");
    await checkAtBothWidths(page, "lead routing: a rule and the editor");
    await editor.getByRole("button", { name: "Cancel" }).click();
    await expect(rule.getByRole("button", { name: "Edit rule Google Ads" })).toBeFocused();
  });

  await test.step("tests leads in the box: Ada's turn, and no rule for a newsletter lead", async () => {
    await testLead(page, { name: "Preview Person", utm_source: "Google" }, `Landing page (${key.keyId})`);
    await expect(testBox(page).getByRole("status")).toHaveText(
      "Matches rule 'Google Ads' → Ada Able. It is this member's turn in the round robin.",
    );
    await saveScreenshot(page, "lead-routing");
    await testLead(page, { name: "Preview Person", utm_source: "newsletter" });
    await expect(testBox(page).getByRole("status")).toHaveText("No rule matches → unassigned.");
    await testLead(page, '["Preview Person"]');
    await expect(testBox(page).getByRole("alert")).toHaveText("Write the lead as a JSON object.");
    await expect(testBox(page).getByRole("status")).toHaveText("");
  });

  // The previews took no turn: the first real lead is Ada's.
  const first = await postLead(request, key, { name: "First Lead", utm_source: "google" });
  const second = await postLead(request, key, { name: "Second Lead", utm_source: "google" });
  expect((await findLead({ id: first, teamId: team.id }))?.ownerId).toBe(ada.id);
  expect((await findLead({ id: second, teamId: team.id }))?.ownerId).toBe(ben.id);

  await test.step("sets the team's fallback; the box names it for a lead no rule matches", async () => {
    const fallback = page.getByRole("region", { name: "Leads no rule matches" });
    await fallback.getByLabel("Leads no rule matches go to").selectOption({ label: `Ben Baker (${ben.email})` });
    await fallback.getByRole("button", { name: "Save fallback" }).click();
    await expect(fallback.getByRole("status")).toHaveText("Leads no rule matches go to Ben Baker.");
    await testLead(page, { name: "Preview Person", utm_source: "newsletter" });
    await expect(testBox(page).getByRole("status")).toHaveText(/^No rule matches → Ben Baker\. /);
  });

  const actions = (await listAuditEvents(team.id)).map((event) => [event.action, event.actorUserId]);
  expect(actions).toEqual(
    expect.arrayContaining([
      ["routing.rule_created", admin.id],
      ["routing.fallback_changed", admin.id],
    ]),
  );

  const adaPage = await signInAs(ada);
  await adaPage.goto(`/t/${team.slug}/leads`);
  await adaPage.getByRole("navigation", { name: "Lead views" }).getByRole("link", { name: "My leads" }).click();
  await expect(adaPage).toHaveURL(/owner=me/);
  const rows = adaPage.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: "First Lead" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Second Lead" })).toHaveCount(0);

  // Ada calls her lead back: Contacted, and the team's time to first contact appears.
  const speed = adaPage.getByRole("region", { name: "Time to first contact" });
  await expect(speed).toContainText("No lead contacted in the last 30 days.");
  await rows.filter({ hasText: "First Lead" }).getByRole("link", { name: "First Lead" }).click();
  const ownership = adaPage.getByRole("region", { name: "Status and owner" });
  await ownership.getByLabel("Change status").selectOption({ label: "Contacted" });
  await ownership.getByRole("button", { name: "Save status" }).click();
  await expect(ownership.getByRole("status").filter({ hasText: "Status set to Contacted." })).toBeVisible();
  await adaPage.goto(`/t/${team.slug}/leads`);
  await expect(speed).toContainText(/7 days: median [^,]+, 90th percentile [^(]+ \(1 lead\)/);
});

test("an admin moves and deletes rules; a member has no Lead Routing tab and the server refuses the page", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member", name: "Mia Member" });
  for (const name of ["Alpha", "Beta"]) {
    const input = { name, enabled: true, conditions: [], mode: "member" as const, userIds: [member.id], fallbackUserId: null };
    expect(await saveRule({ teamId: team.id, input, actor: CLI_ACTOR })).toMatchObject({ ok: true });
  }

  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/settings/routing`);
  const headings = rulesList(page).getByRole("heading");
  await expect(headings).toHaveText(["Rule 1: Alpha", "Rule 2: Beta"]);
  await expect(ruleItem(page, "Alpha")).toContainText("Any lead");
  await expect(ruleItem(page, "Alpha")).toContainText("Mia Member");
  await expect(ruleItem(page, "Alpha").getByRole("button", { name: "Move up rule Alpha" })).toBeDisabled();

  await ruleItem(page, "Alpha").getByRole("button", { name: "Move down rule Alpha" }).click();
  await expect(headings).toHaveText(["Rule 1: Beta", "Rule 2: Alpha"]);
  expect((await readTeamRouting(team.id)).rules.map((rule) => rule.name)).toEqual(["Beta", "Alpha"]);

  await ruleItem(page, "Beta").getByRole("button", { name: "Delete rule Beta" }).click();
  await page.getByRole("dialog", { name: 'Delete rule "Beta"?' }).getByRole("button", { name: "Delete rule" }).click();
  await expect(headings).toHaveText(["Rule 1: Alpha"]);
  expect((await readTeamRouting(team.id)).rules.map((rule) => rule.name)).toEqual(["Alpha"]);

  const memberPage = await signInAs(member);
  await memberPage.goto(`/t/${team.slug}/settings/general`);
  const nav = memberPage.getByRole("navigation", { name: "Settings" });
  await expect(nav.getByRole("link", { name: "General" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Lead Routing" })).toHaveCount(0);
  const response = await memberPage.goto(`/t/${team.slug}/settings/routing`);
  expect(response!.status()).toBe(404);
  await expect(memberPage.getByRole("list", { name: "Assignment rules, first first" })).toHaveCount(0);
});
