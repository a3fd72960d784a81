import type { Page } from "@playwright/test";
import { db } from "../../lib/db/client";
import { checkAtBothWidths } from "../support/accessibility-check";
import { newTeamWithUser, newUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Leads → Import, whom the imported leads go to (docs/routing.md "Imports"): an admin
// assigns every row of a small file to a member, and the lead list shows them as its owner.

const FILE = ["Name,Email", "Grace Hopper,grace@example.com", "Alan Turing,alan@example.com"].join("\r\n");

const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

test("an admin imports a CSV with every lead assigned to a member, who owns them in the lead list", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member", name: "Ada Assignee" });
  const page = await signInAs(admin);

  await page.goto(`/t/${team.slug}/leads/import`);
  await page
    .getByLabel("CSV file", { exact: true })
    .setInputFiles({ name: "assigned.csv", mimeType: "text/csv", buffer: Buffer.from(FILE, "utf8") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("heading", { name: "Map the columns of assigned.csv" })).toBeVisible();

  // Unassigned unless chosen; no rules in this team, so no "by the rules".
  const owners = page.getByRole("group", { name: "Assign the imported leads" });
  await expect(owners.getByRole("radio", { name: "Leave them unassigned" })).toBeChecked();
  await expect(owners.getByRole("radio", { name: "By the team's assignment rules" })).toHaveCount(0);
  await expect(owners.getByRole("link", { name: "Settings → Lead Routing" })).toBeVisible();
  await owners.getByLabel("Member who gets every imported lead").selectOption({ label: `Ada Assignee (${member.email})` });
  await expect(owners.getByRole("radio", { name: "All to" })).toBeChecked();
  await checkAtBothWidths(page, "import: the owners of the imported leads");

  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Import 2 rows" }).click();
  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Owners: Assigned to Ada Assignee")).toBeVisible();

  await page.getByRole("link", { name: "View imported leads" }).click();
  await expect(page.getByText("2 leads match, newest first.")).toBeVisible();
  await expect(row(page, "Grace Hopper")).toContainText("Ada Assignee");
  await expect(row(page, "Alan Turing")).toContainText("Ada Assignee");
  const stored = await db().lead.findMany({ where: { teamId: team.id }, select: { ownerId: true, assignedAt: true } });
  expect(stored.map((lead) => [lead.ownerId, lead.assignedAt instanceof Date])).toEqual([
    [member.id, true],
    [member.id, true],
  ]);
});
