import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { setFormConsent } from "../../lib/consent/consent-changes";
import { db } from "../../lib/db/client";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { newTeamWithUser, newUser } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { saveScreenshot } from "../support/screenshots";
import { pageWith, startStaticSite, type StaticSite } from "../support/static-site";
import { expect, test } from "../support/test";
import type { Page } from "@playwright/test";

// Issue 12 in Chromium: a team creates a web form, pastes its snippet into a static page
// on another origin, and a visitor's submission (the ALTCHA widget solving its challenge)
// becomes a lead with the form's source and extra fields; the fetch variant too. What
// must store nothing: a page on a foreign origin, a filled honeypot, a missing challenge.

const sites: StaticSite[] = [];
test.afterAll(async () => Promise.all(sites.map((site) => site.close())));

async function site(html: string): Promise<StaticSite> {
  const started = await startStaticSite(pageWith(html));
  sites.push(started);
  return started;
}

/** Creates a form in the Web Forms tab; returns its id (from the page it lands on). */
async function createForm(page: Page, slug: string, options: { name: string; origins: string; source?: string }): Promise<string> {
  await page.goto(`/t/${slug}/settings/web-forms`);
  const editor = page.getByRole("form", { name: "New web form" });
  await editor.getByLabel("Name").fill(options.name);
  await editor.getByLabel("Allowed origins").fill(options.origins);
  if (options.source) await editor.getByLabel("Lead source").selectOption({ label: options.source });
  await editor.getByRole("button", { name: "Create form" }).click();
  await expect(page.getByRole("heading", { level: 2, name: options.name })).toBeVisible();
  return /\/web-forms\/(form_[\w-]+)/.exec(page.url())![1]!;
}

const snippet = (page: Page, title: "HTML form" | "With fetch") =>
  page
    .getByRole("region", { name: `${title} snippet` })
    .locator("pre")
    .innerText();

/** Ticks the widget's checkbox and waits until the proof of work is done. */
async function solveWidget(page: Page): Promise<void> {
  // The widget draws its own box over the input: a person clicks the label.
  await page.getByText("I'm not a robot", { exact: true }).click();
  await expect(page.getByText("Verified")).toBeVisible({ timeout: 60_000 });
}

const leadsOfTeam = (teamId: string) => db().lead.findMany({ where: { teamId }, include: { source: true }, orderBy: { seq: "asc" } });

test("a static site's HTML form and its fetch variant create leads with the form's source and extra fields", async ({
  signInAs,
  browser,
}) => {
  test.setTimeout(180_000);
  const { team, user } = await newTeamWithUser("owner");
  await addLeadSource(team.id, "Landing page");
  const admin = await signInAs(user);
  // The site's origin must be known before the form exists: start it with a placeholder.
  const landing = await startStaticSite("");
  sites.push(landing);
  await landing.close();
  const formId = await createForm(admin, team.slug, { name: "Spring campaign", origins: landing.origin, source: "Landing page" });
  await saveScreenshot(admin, "web-forms");
  const html = await snippet(admin, "HTML form");
  expect(html).toContain(`/api/forms/${formId}`);
  const htmlSite = await site(html);
  const fetchSite = await site(await snippet(admin, "With fetch"));

  // Allow both static sites: the form's settings take one origin per line.
  const settings = admin.getByRole("form", { name: "Settings of Spring campaign" });
  await settings.getByLabel("Allowed origins").fill(`${htmlSite.origin}\n${fetchSite.origin}`);
  await settings.getByRole("button", { name: "Save changes" }).click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(htmlSite.origin);
  await visitor.getByLabel("Name").fill("Ada Lovelace");
  await visitor.getByLabel("Email").fill("ada@example.com");
  await visitor.getByLabel("Message").fill("Please call me about pricing");
  await solveWidget(visitor);
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/f/${formId}/thanks$`));
  await expect(visitor.getByRole("heading", { name: "Thank you!" })).toBeVisible();

  await visitor.goto(fetchSite.origin);
  await visitor.getByLabel("Name").fill("Grace Hopper");
  await visitor.getByLabel("Message").fill("Sent with fetch");
  await solveWidget(visitor);
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "Thank you" })).toHaveText("Thank you! We will be in touch.");

  // Ada comes back through the other page: a new form adds a repeat to the person's lead.
  await visitor.goto(fetchSite.origin);
  await visitor.getByLabel("Name").fill("Ada Lovelace");
  await visitor.getByLabel("Email").fill("ADA@example.com");
  await visitor.getByLabel("Message").fill("Back again about pricing");
  await solveWidget(visitor);
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "Thank you" })).toHaveText("Thank you! We will be in touch.");
  await visitor.context().close();

  const leads = await leadsOfTeam(team.id);
  // The snippets load the attribution script (docs/attribution.md): a direct visit of the page
  // adds its address and time as first and last touch (e2e/ui/attribution-script.spec.ts).
  const visitOf = (site: StaticSite) => ({
    landing_page: `${site.origin}/`,
    last_seen_at: expect.any(String),
    first_landing_page: `${site.origin}/`,
    first_seen_at: expect.any(String),
  });
  expect(leads.map((lead) => [lead.firstName, lead.source.name, lead.formId, lead.extraFields])).toEqual([
    ["Ada", "Landing page", formId, { message: "Please call me about pricing", ...visitOf(htmlSite) }],
    ["Grace", "Landing page", formId, { message: "Sent with fetch", ...visitOf(fetchSite) }],
  ]);
  await admin.goto(`/t/${team.slug}/leads`);
  await expect(admin.getByText("2 submissions")).toBeVisible();
  await admin.getByRole("link", { name: "Ada Lovelace" }).click();
  await expect(admin.getByRole("region", { name: "Extra Fields" })).toContainText("Please call me about pricing");
  // The lead's facts name the form, and so do both its submissions.
  await expect(admin.getByRole("definition").filter({ hasText: `Spring campaign (${formId})` })).toBeVisible();
  const submissions = admin.getByRole("region", { name: "Submissions" });
  await expect(submissions.getByRole("listitem")).toHaveCount(2);
  await expect(submissions.getByRole("listitem").filter({ hasText: `Spring campaign (${formId})` })).toHaveCount(2);
  await expect(admin.getByText("Landing page").first()).toBeVisible();
});

test("a foreign origin, a filled honeypot and a missing challenge store nothing; the visitor is told what happened", async ({
  signInAs,
  browser,
}) => {
  test.setTimeout(120_000);
  const { team, user } = await newTeamWithUser("admin");
  const admin = await signInAs(user);
  const allowed = await site("");
  const formId = await createForm(admin, team.slug, { name: "Contact", origins: allowed.origin });
  const html = await snippet(admin, "HTML form");
  const foreign = await site(html);
  const visitor = await (await browser.newContext()).newPage();

  // On a foreign origin the widget gets no challenge (no CORS for it); the form is sent anyway.
  await visitor.goto(foreign.origin);
  await visitor.getByLabel("Name").fill("Eve");
  await visitor.locator("form").evaluate((form: HTMLFormElement) => form.submit());
  await expect(visitor.getByRole("heading", { name: "Your message was not sent" })).toBeVisible();
  await expect(visitor.getByRole("alert")).toHaveText("This website is not allowed to send leads to this form");

  // The allowed site, with the snippet as pasted: a bot fills the hidden honeypot.
  const page = await site(html);
  await admin.getByRole("form", { name: "Settings of Contact" }).getByLabel("Allowed origins").fill(page.origin);
  await admin.getByRole("form", { name: "Settings of Contact" }).getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByRole("form", { name: "Settings of Contact" }).getByRole("status")).toHaveText("Saved.");
  await visitor.goto(page.origin);
  await visitor.getByLabel("Name").fill("Bot");
  await visitor.locator('input[name="_gotcha"]').evaluate((input: HTMLInputElement) => (input.value = "http://spam.example"));
  await solveWidget(visitor);
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/f/${formId}/thanks$`));

  // Without the widget's answer (a browser without JavaScript): 403 and a page that says so.
  await visitor.goto(page.origin);
  await visitor.locator("altcha-widget").evaluate((widget) => widget.remove());
  await visitor.getByLabel("Name").fill("No Script");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.getByRole("alert")).toContainText("Spam check missing");
  await visitor.context().close();

  expect(await leadsOfTeam(team.id)).toEqual([]);
  await admin.goto(`/t/${team.slug}/settings/web-forms`);
  const card = admin.getByRole("listitem").filter({ hasText: formId });
  await expect(card).toContainText("1 submission");
  await expect(card).toContainText("2 failures");
});

test("the hosted form page sends a lead without any website", async ({ signInAs, page }) => {
  test.setTimeout(120_000);
  const { team, user } = await newTeamWithUser("owner");
  const admin = await signInAs(user);
  const formId = await createForm(admin, team.slug, { name: "Event sign-up", origins: "https://example.com" });
  await page.goto(`/f/${formId}`);
  await expect(page.getByRole("heading", { name: "Event sign-up" })).toBeVisible();
  // Any account can publish a form under any title: the page says whose it is and who hosts it.
  await expect(page.getByText(`A form of ${team.name}, hosted for them by ${new URL(page.url()).host}.`, { exact: false })).toBeVisible();
  await page.getByLabel("Name").fill("Katherine Johnson");
  await page.getByLabel("Company").fill("NASA");
  await solveWidget(page);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  const [lead] = await leadsOfTeam(team.id);
  expect([lead?.firstName, lead?.organization, lead?.formId]).toEqual(["Katherine", "NASA", formId]);
});

test("a member sees the forms and their snippets but cannot change them", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member" });
  const owner = await signInAs(user);
  const formId = await createForm(owner, team.slug, { name: "Newsletter", origins: "https://example.com" });
  // The owner's Disable call, recorded to be forged from the member's session below.
  const disable = await recordAction(owner, () => owner.getByRole("button", { name: "Disable" }).click());
  await expect(owner.getByRole("button", { name: "Enable" })).toBeVisible();
  await owner.getByRole("button", { name: "Enable" }).click();
  await expect(owner.getByRole("button", { name: "Disable" })).toBeVisible();

  // Its consent with double opt-in, held until confirmed (issue 46): the member reads the mode in the editor's words.
  const settings = { text: "Send me the newsletter.", purpose: "Newsletter", policyUrl: null, required: false };
  expect(await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn: true, hold: true, actor: CLI_ACTOR })).toBe(true);

  const page = await signInAs(member);
  const forged = await replayAction(page, disable);
  expect(forged.text).toContain("Your role in this team does not allow this.");
  expect((await db().webForm.findUniqueOrThrow({ where: { id: formId } })).enabled).toBe(true);
  await page.goto(`/t/${team.slug}/settings/web-forms`);
  await expect(page.getByRole("form", { name: "New web form" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newsletter" }).click();
  await expect(page.getByRole("region", { name: "HTML form snippet" })).toContainText(`/api/forms/${formId}`);
  await expect(page.getByRole("button", { name: "Delete web form Newsletter" })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Settings of Newsletter" })).toHaveCount(0);
  await expect(page.getByText("Asks for consent: Newsletter (optional).")).toBeVisible();
  await expect(
    page.getByText(
      "Double opt-in: email the person a link to confirm their consent. When to create the lead: Create the lead only once confirmed.",
    ),
  ).toBeVisible();
});
