import type { Page } from "@playwright/test";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { db } from "../../lib/db/client";
import { createLead } from "../../lib/leads/create-lead";
import { findLead } from "../../lib/leads/lead-store";
import { changeMembership } from "../../lib/teams/membership-changes";
import type { Team } from "../../lib/teams/team-store";
import { checkAtBothWidths } from "../support/accessibility-check";
import { newTeamWithUser, newUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// The lead list's bulk "Assign to" and "Set status" (owners and admins), its per-status
// views with their counts, and the wait of every New lead (docs/routing.md).

async function lead(team: Team, name: string): Promise<string> {
  return (await createLead({ team, apiKeyId: null, input: { extraFields: {}, name } })).leadId;
}

const bulk = (page: Page) => page.getByRole("group", { name: "Bulk actions" });
const views = (page: Page) => page.getByRole("navigation", { name: "Status views" });
const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

async function apply(page: Page, form: "Assign to" | "Set status", option: string): Promise<void> {
  const controls = bulk(page).getByRole("form", { name: form });
  await controls.getByRole("combobox", { name: form }).selectOption({ label: option });
  await controls.getByRole("button", { name: "Apply" }).click();
}

test("an admin assigns two selected leads to a member and sets them Contacted; the status views count them", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member", name: "Mia Member" });
  const first = await lead(team, "Bulk First");
  const second = await lead(team, "Bulk Second");
  const waiting = await lead(team, "Waiting Lead");
  // Two and a half hours ago: "waiting 2 h" however long the test takes.
  await db().lead.update({ where: { id: waiting }, data: { createdAt: new Date(Date.now() - 150 * 60_000) } });

  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/leads`);
  await expect(views(page).getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
  await expect(views(page).getByRole("link", { name: "New (3)" })).toBeVisible();
  await expect(views(page).getByRole("link", { name: "Contacted (0)" })).toBeVisible();
  await expect(row(page, "Waiting Lead")).toContainText("waiting 2 h");

  await page.getByRole("checkbox", { name: `Select ${first}` }).check();
  await page.getByRole("checkbox", { name: `Select ${second}` }).check();
  await expect(bulk(page)).toContainText("2 leads selected");
  await checkAtBothWidths(page, "leads, two selected, bulk assign and status");

  await apply(page, "Assign to", "Mia Member");
  await expect(bulk(page)).toContainText("2 leads assigned to Mia Member.");
  await expect(page.getByRole("checkbox", { name: `Select ${first}` })).not.toBeChecked();
  await expect(row(page, "Bulk First")).toContainText("Mia Member");
  await expect(row(page, "Bulk Second")).toContainText("Mia Member");
  await expect(bulk(page).getByRole("form")).toHaveCount(0);

  await page.getByRole("checkbox", { name: `Select ${first}` }).check();
  await page.getByRole("checkbox", { name: `Select ${second}` }).check();
  await apply(page, "Set status", "Contacted");
  await expect(bulk(page)).toContainText("2 leads set to Contacted.");
  await expect(views(page).getByRole("link", { name: "New (1)" })).toBeVisible();
  await expect(views(page).getByRole("link", { name: "Contacted (2)" })).toBeVisible();
  await expect(row(page, "Bulk First")).not.toContainText("waiting");
  await expect(row(page, "Waiting Lead")).toContainText("waiting 2 h");

  // A status view keeps the other filters; the owner views combine with it.
  await views(page).getByRole("link", { name: "Contacted (2)" }).click();
  await expect(views(page).getByRole("link", { name: "Contacted (2)" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table")).not.toContainText("Waiting Lead");
  await page.getByRole("navigation", { name: "Lead views" }).getByRole("link", { name: "Unassigned" }).click();
  await expect(views(page).getByRole("link", { name: "Contacted (0)" })).toBeVisible();
  await views(page).getByRole("link", { name: "New (1)" }).click();
  await expect(page).toHaveURL(/[?&]owner=none/);
  await expect(page).toHaveURL(/[?&]status=new/);
  await expect(page.getByRole("table")).toContainText("Waiting Lead");
  await checkAtBothWidths(page, "leads, a status view");

  // Already as asked: nothing changes, and the list says so.
  await page.goto(`/t/${team.slug}/leads?status=contacted`);
  await page.getByRole("checkbox", { name: "Select all leads on this page" }).check();
  await apply(page, "Set status", "Contacted");
  await expect(bulk(page)).toContainText("Nothing changed: the 2 leads were already Contacted.");

  for (const id of [first, second]) {
    const stored = await findLead({ id, teamId: team.id });
    expect([stored?.status, stored?.ownerId]).toEqual(["contacted", member.id]);
  }
  expect((await findLead({ id: waiting, teamId: team.id }))?.status).toBe("new");
  const events = (await listAuditEvents(team.id)).filter((event) => ["lead.assigned", "lead.status_changed"].includes(event.action));
  expect(events.map((event) => [event.action, event.actorUserId, event.targetId, event.details]).sort()).toEqual(
    [
      ["lead.assigned", admin.id, first, { from: null, to: member.id }],
      ["lead.assigned", admin.id, second, { from: null, to: member.id }],
      ["lead.status_changed", admin.id, first, { from: "new", to: "contacted" }],
      ["lead.status_changed", admin.id, second, { from: "new", to: "contacted" }],
    ].sort(),
  );
});

test("a refusal of the change is shown and keeps the selection", async ({ signInAs }) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const leaver = await newUser({ team, role: "member", name: "Leo Leaver" });
  const only = await lead(team, "Kept Lead");

  const page = await signInAs(owner);
  await page.goto(`/t/${team.slug}/leads`);
  await page.getByRole("checkbox", { name: `Select ${only}` }).check();
  // The member leaves after the page was loaded: the server refuses the stale choice.
  await changeMembership({ teamId: team.id, userId: leaver.id, role: null });
  await apply(page, "Assign to", "Leo Leaver");
  await expect(bulk(page).getByRole("alert")).toHaveText("That user is not a member of this team.");
  await expect(page.getByRole("checkbox", { name: `Select ${only}` })).toBeChecked();
  expect((await findLead({ id: only, teamId: team.id }))?.ownerId).toBeNull();
});

test("a member sees the status views and the wait, but no bulk assign or status", async ({ signInAs }) => {
  const { team, user: member } = await newTeamWithUser("member");
  await lead(team, "Member View Lead");

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/leads`);
  await expect(views(page).getByRole("link", { name: "New (1)" })).toBeVisible();
  await expect(row(page, "Member View Lead")).toContainText(/waiting \d+ min/);
  await expect(bulk(page)).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByLabel("Assign to")).toHaveCount(0);
  await expect(page.getByLabel("Set status")).toHaveCount(0);
  await checkAtBothWidths(page, "leads, a member");
});
