import { db } from "../../lib/db/client";
import { checkAtBothWidths } from "../support/accessibility-check";
import { newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Issue 46, step 1 in Chromium (docs/consent.md): an admin turns on consent for a web form, a
// visitor ticks the box on the hosted form, and the lead's page shows the evidence with the
// exact text the visitor saw, its purpose, version and channel; a member records consent
// given by phone, which joins the history. Step 3: a member withdraws it on the lead's page
// (axe at both widths), and a later submission of the address is marked "Withdrew consent before",
// which the list's consent filter finds.

const TEXT = "I agree that Example Ltd may email me about its products. I can withdraw at any time.";

test("an admin asks for consent, a visitor ticks it on the hosted form, the lead's page shows the evidence", async ({ signInAs, page }) => {
  test.setTimeout(120_000);
  const { team, user } = await newTeamWithUser("owner");
  const admin = await signInAs(user);
  await admin.goto(`/t/${team.slug}/settings/web-forms`);
  const editor = admin.getByRole("form", { name: "New web form" });
  await editor.getByLabel("Name").fill("Newsletter");
  await editor.getByLabel("Allowed origins").fill("https://example.com");
  await editor.getByLabel(/Proof-of-work spam check/).uncheck();
  await editor.getByRole("button", { name: "Create form" }).click();
  await expect(admin.getByRole("heading", { level: 2, name: "Newsletter" })).toBeVisible();
  const formId = /\/web-forms\/(form_[\w-]+)/.exec(admin.url())![1]!;

  const consent = admin.getByRole("form", { name: "Consent" });
  await consent.getByLabel(/Ask for consent/).check();
  await consent.getByLabel("Consent text").fill(TEXT);
  await consent.getByLabel("Purpose").fill("Marketing emails");
  await consent.getByLabel("Privacy policy (optional)").fill("https://example.com/privacy");
  await consent.getByLabel(/^Required/).check();
  await consent.getByRole("button", { name: "Save consent" }).click();
  await expect(consent.getByText("Saved.")).toBeVisible();
  await expect(admin.getByRole("list", { name: "Consent versions" }).getByText(TEXT)).toBeVisible();

  await page.goto(`/f/${formId}`);
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill("ada@example.com");
  const box = page.getByRole("checkbox", { name: new RegExp(TEXT.slice(0, 40)) });
  await expect(box).not.toBeChecked();
  await expect(page.getByRole("link", { name: "Privacy policy" })).toHaveAttribute("href", "https://example.com/privacy");
  await box.check();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();

  const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id } });
  await admin.goto(`/t/${team.slug}/leads/${lead.id}`);
  const section = admin.getByRole("region", { name: /Consent/ });
  await expect(section.getByText("Given", { exact: true }).first()).toBeVisible();
  await expect(section.getByText(TEXT, { exact: true })).toBeVisible();
  await expect(section.getByText("Marketing emails", { exact: true })).toBeVisible();
  await expect(section.getByText("Version 1 (required)")).toBeVisible();
  await expect(section.getByText("Web form", { exact: true })).toBeVisible();
  await expect(section.getByText(new RegExp(`/f/${formId}$`))).toBeVisible();

  await section.getByRole("button", { name: "Record consent" }).click();
  const dialog = admin.getByRole("dialog", { name: "Record consent" });
  await dialog.getByLabel("What the person agreed to").fill("Phone calls about the offer");
  await dialog.getByLabel("Purpose").fill("Sales calls");
  await dialog.getByLabel("How it was given").fill("By phone, call of 2 December");
  await dialog.getByRole("button", { name: "Record" }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByText("By phone, call of 2 December")).toBeVisible();
  await expect(section.getByText("Recorded by a member")).toBeVisible();
  await section.getByText("History (1 earlier)").click();
  await expect(section.getByRole("list", { name: "Earlier consent evidence" }).getByText(TEXT, { exact: true })).toBeVisible();

  // Step 3: a member records the person's withdrawal; the address goes on the suppression list.
  await section.getByRole("button", { name: "Withdraw consent" }).click();
  const withdraw = admin.getByRole("dialog", { name: "Withdraw consent" });
  await withdraw.getByLabel("How it was withdrawn (optional)").fill("By email of 3 December");
  await checkAtBothWidths(admin, "withdraw consent dialog");
  await withdraw.getByRole("button", { name: "Withdraw" }).click();
  await expect(withdraw).toBeHidden();
  await expect(section.getByText("Withdrawn", { exact: true }).first()).toBeVisible();
  await expect(section.getByText("By email of 3 December")).toBeVisible();
  await expect(section.getByRole("button", { name: "Withdraw consent" })).toHaveCount(0);
  await checkAtBothWidths(admin, "lead page, consent withdrawn");
  expect(await db().consentSuppression.count({ where: { teamId: team.id } })).toBe(1);

  // A later submission of the address is kept, marked "Withdrew consent before".
  await page.goto(`/f/${formId}`);
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill("ADA@example.com");
  await page.getByRole("checkbox", { name: new RegExp(TEXT.slice(0, 40)) }).check();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  const newest = await db().lead.findFirstOrThrow({ where: { teamId: team.id }, orderBy: { id: "desc" } });
  await admin.goto(`/t/${team.slug}/leads/${newest.id}`);
  await expect(
    admin
      .getByRole("region", { name: /Consent/ })
      .getByText("Withdrew consent before")
      .first(),
  ).toBeVisible();

  // The list filters by consent: only that lead is "Withdrew consent before".
  await admin.goto(`/t/${team.slug}/leads`);
  await admin.getByText("Filters and sort").click();
  await admin.getByLabel("Consent", { exact: true }).selectOption({ label: "Withdrew consent before" });
  await admin.getByRole("button", { name: "Apply filters" }).click();
  await expect(admin).toHaveURL(/consent=withdrawn_before/);
  await expect(admin.getByText(/^1 lead matches,/)).toBeVisible();
  await expect(admin.getByRole("link", { name: /Ada Lovelace/ })).toHaveCount(1);
});
