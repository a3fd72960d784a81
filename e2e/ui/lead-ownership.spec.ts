import type { Page } from "@playwright/test";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { createLead } from "../../lib/leads/create-lead";
import { findLead } from "../../lib/leads/lead-store";
import { checkAtBothWidths } from "../support/accessibility-check";
import { recordAction, replayAction } from "../support/server-actions";
import { newTeamWithUser, newUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// A lead's status and owner on its page (docs/routing.md): any member sets the status and
// takes an unassigned lead; owners and admins assign it to any member.

const card = (page: Page) => page.getByRole("region", { name: "Status and owner" });
const shown = (page: Page, term: "Status" | "Owner") =>
  card(page)
    .locator("dd")
    .nth(term === "Status" ? 0 : 1);

test("a member marks a lead Contacted and takes it; an admin reassigns it to another member", async ({ signInAs }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member", name: "Mia Member" });
  const other = await newUser({ team, role: "member", name: "Otto Other" });
  const { leadId } = await createLead({ team, apiKeyId: null, input: { extraFields: {}, name: "Routed Lead" } });

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/leads/${leadId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Routed Lead" })).toBeVisible();
  await expect(shown(page, "Status")).toHaveText(/^New · waiting \d+ (min|h|d)$/);
  await expect(shown(page, "Owner")).toHaveText("Unassigned");
  await expect(card(page).getByLabel("Change owner")).toHaveCount(0);
  await checkAtBothWidths(page, "lead: status and owner, a member");

  await card(page).getByLabel("Change status").selectOption({ label: "Contacted" });
  await card(page).getByRole("button", { name: "Save status" }).click();
  await expect(card(page).getByRole("status").filter({ hasText: "Status set to Contacted." })).toBeVisible();
  await expect(shown(page, "Status")).toHaveText("Contacted");

  await card(page).getByRole("button", { name: "Take this lead" }).click();
  await expect(card(page).getByRole("status").filter({ hasText: "You own this lead now." })).toBeVisible();
  await expect(shown(page, "Owner")).toHaveText("Mia Member");
  await expect(card(page).getByRole("button", { name: "Take this lead" })).toHaveCount(0);

  // Issue 41, step 4: the member writes a two-line note; the timeline shows it as text, its
  // line break kept, above the status change.
  const timeline = page.getByRole("region", { name: "Timeline" });
  await timeline.getByLabel("Add a note").fill("Called, no answer.\nTry again on Friday.");
  await timeline.getByRole("button", { name: "Add note" }).click();
  const note = timeline.getByRole("listitem").filter({ hasText: "Note by Mia Member" });
  await expect(note.getByText("Try again on Friday.")).toBeVisible();
  await expect(note.locator("p").first()).toHaveCSS("white-space", "pre-wrap");
  expect(await note.locator("p").first().textContent()).toBe("Called, no answer.\nTry again on Friday.");
  await expect(timeline.getByLabel("Add a note")).toHaveValue("");
  await expect(timeline.getByRole("listitem").filter({ hasText: "Status changed from New to Contacted by Mia Member" })).toBeVisible();

  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/leads/${leadId}`);
  await expect(shown(adminPage, "Owner")).toHaveText("Mia Member");
  const ownerSelect = card(adminPage).getByLabel("Change owner");
  await expect(ownerSelect).toHaveValue(member.id);
  await checkAtBothWidths(adminPage, "lead: status and owner, an admin");
  await ownerSelect.selectOption({ label: "Otto Other" });
  await card(adminPage).getByRole("button", { name: "Save owner" }).click();
  await expect(card(adminPage).getByRole("status").filter({ hasText: "Assigned to Otto Other." })).toBeVisible();
  await expect(shown(adminPage, "Owner")).toHaveText("Otto Other");

  const stored = await findLead({ id: leadId, teamId: team.id });
  expect([stored?.status, stored?.ownerId, stored?.firstContactedAt instanceof Date]).toEqual(["contacted", other.id, true]);
  const events = (await listAuditEvents(team.id)).filter((event) => ["lead.assigned", "lead.status_changed"].includes(event.action));
  expect(events.map((event) => [event.action, event.actorUserId, event.targetId, event.details])).toEqual([
    ["lead.assigned", admin.id, leadId, { from: member.id, to: other.id }],
    ["lead.assigned", member.id, leadId, { from: null, to: member.id }],
    ["lead.status_changed", member.id, leadId, { from: "new", to: "contacted" }],
  ]);
});

test("a member cannot reassign a lead another member owns; the refusal is shown", async ({ signInAs }) => {
  const { team, user: first } = await newTeamWithUser("member");
  const second = await newUser({ team, role: "member" });
  const { leadId } = await createLead({ team, apiKeyId: null, input: { extraFields: {}, name: "Raced Lead" } });

  // Both open the unassigned lead; the first takes it, then the second tries.
  const firstPage = await signInAs(first);
  const secondPage = await signInAs(second);
  await secondPage.goto(`/t/${team.slug}/leads/${leadId}`);
  await firstPage.goto(`/t/${team.slug}/leads/${leadId}`);
  await card(firstPage).getByRole("button", { name: "Take this lead" }).click();
  await expect(shown(firstPage, "Owner")).toHaveText(first.email);

  await card(secondPage).getByRole("button", { name: "Take this lead" }).click();
  await expect(card(secondPage).getByRole("alert")).toHaveText("This lead is already assigned; only owners and admins reassign leads.");
  expect((await findLead({ id: leadId, teamId: team.id }))?.ownerId).toBe(first.id);
});

test("forged server-action calls are refused: a member replaying an admin's assignment, a user of another team replaying a status change", async ({
  signInAs,
}) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member", name: "Mia Member" });
  await newUser({ team, role: "member", name: "Otto Other" });
  const { team: elsewhere, user: outsider } = await newTeamWithUser("owner");
  const { leadId } = await createLead({ team, apiKeyId: null, input: { extraFields: {}, name: "Guarded Lead" } });

  // The admin's real calls, recorded: assign the lead to Otto, set it Qualified.
  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/leads/${leadId}`);
  await card(adminPage).getByLabel("Change owner").selectOption({ label: "Otto Other" });
  const assign = await recordAction(adminPage, () => card(adminPage).getByRole("button", { name: "Save owner" }).click());
  await expect(shown(adminPage, "Owner")).toHaveText("Otto Other");
  await card(adminPage).getByLabel("Change status").selectOption({ label: "Qualified" });
  const qualify = await recordAction(adminPage, () => card(adminPage).getByRole("button", { name: "Save status" }).click());
  await expect(shown(adminPage, "Status")).toHaveText("Qualified");
  // Back to unassigned and New, so a forged call that went through would show.
  await card(adminPage).getByLabel("Change owner").selectOption({ label: "Unassigned" });
  await card(adminPage).getByRole("button", { name: "Save owner" }).click();
  await expect(shown(adminPage, "Owner")).toHaveText("Unassigned");
  await card(adminPage).getByLabel("Change status").selectOption({ label: "New" });
  await card(adminPage).getByRole("button", { name: "Save status" }).click();
  await expect(shown(adminPage, "Status")).toHaveText(/^New/);

  // A member replays the assignment to Otto: members take leads for themselves only.
  const memberPage = await signInAs(member);
  const forgedAssign = await replayAction(memberPage, assign);
  expect(forgedAssign.text).toContain("Members can take a lead only for themselves; owners and admins assign leads to others.");
  // A user of another team (an owner there) replays the status change of this team's lead.
  const outsiderPage = await signInAs(outsider);
  const forgedStatus = await replayAction(outsiderPage, qualify);
  expect(forgedStatus.text).toContain("Team not found.");
  // The same call aimed at the outsider's own team, with this team's lead id: not theirs.
  const aimed = qualify.body.replace(JSON.stringify(team.slug), JSON.stringify(elsewhere.slug));
  expect(aimed).not.toBe(qualify.body);
  const forgedElsewhere = await replayAction(outsiderPage, qualify, aimed);
  expect(forgedElsewhere.text).toContain("A lead was not found in this team");

  const stored = await findLead({ id: leadId, teamId: team.id });
  expect([stored?.status, stored?.ownerId]).toEqual(["new", null]);
});
