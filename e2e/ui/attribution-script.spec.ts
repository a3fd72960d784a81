import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { db } from "../../lib/db/client";
import type { NewApiKey } from "../../lib/api-keys/api-key-changes";
import { htmlSnippet } from "../../lib/web-forms/snippets";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { authHeaders, BASE_URL, CREATE_LEAD, newTeam, newTeamWithKey } from "../support/fixtures";
import { sitePage, startStaticPages, type PostedForm, type StaticPages } from "../support/static-pages";
import { expect, test } from "../support/test";
import type { Browser, Page } from "@playwright/test";

// Issue 43, the attribution script (/api/widget/attribution.js, docs/attribution.md) in
// Chromium, on static sites of other origins than the app: a campaign visit and a later visit
// from another site reach create_lead through the site's own back end as first and last
// touch; a web form's post and the hosted form page keep them; consent mode, forms added after
// load, storage that throws, and a form's own utm_source field.

const SCRIPT = `<script src="${BASE_URL}/api/widget/attribution.js" async></script>`;
const KEY = "leadintake.attribution";
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const CONTACT_FORM = `<form action="/signup" method="post">
  <label>Name <input name="name" required></label>
  <label>Email <input name="email" type="email"></label>
  <button type="submit">Send</button>
</form>`;

const sites: StaticPages[] = [];
test.afterAll(async () => Promise.all(sites.map((site) => site.close())));

async function site(pages: Record<string, string>, onPost?: (form: PostedForm) => Promise<string>): Promise<StaticPages> {
  const started = await startStaticPages(pages, { onPost });
  sites.push(started);
  return started;
}

/**
 * The site's own back end: the posted form's fields as create_lead's JSON body, with the
 * team's key (a name sent twice becomes a list, as a PHP or Express back end reads it, so a
 * duplicate would reach create_lead). Answers with create_lead's status and lead id or error.
 */
const forwardTo =
  (key: NewApiKey) =>
  async ({ fields }: PostedForm) => {
    const body: Record<string, string | string[]> = {};
    for (const [name, value] of fields) body[name] = name in body ? [body[name]!, value].flat() : value;
    const response = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
      method: "POST",
      headers: { ...authHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { lead_id?: string; error?: string };
    return sitePage("Thank you", `<p id="answer">${response.status} ${answer.lead_id ?? answer.error}</p>`);
  };

/** A visitor in a browser context of its own (own storage), whose page errors fail the test. */
async function newVisitor(browser: Browser): Promise<{ page: Page; errors: Error[] }> {
  const page = await (await browser.newContext()).newPage();
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  return { page, errors };
}

/** The hidden inputs the script added to the page's forms, by name. */
const addedInputs = (page: Page, form = "form") =>
  page
    .locator(`${form} input[type="hidden"][data-lead-intake]`)
    .evaluateAll((inputs: HTMLInputElement[]) => Object.fromEntries(inputs.map((input) => [input.name, input.value])));

const storedRecord = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);

async function send(page: Page, name: string, email: string): Promise<string> {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  const answer = page.locator("#answer");
  await expect(answer).toHaveText(/^201 CRM-LEAD-\d+$/);
  return (await answer.innerText()).split(" ")[1]!;
}

const leadOf = (teamId: string, id: string) => db().lead.findFirstOrThrow({ where: { teamId, id } });

test("a campaign visit is the first touch; a later visit from another site changes the last touch only; both reach create_lead", async ({
  browser,
}) => {
  const { team, key } = await newTeamWithKey();
  const shop = await site(
    {
      "/landing": sitePage("Spring offer", `<p><a href="/contact">Contact us</a></p>${SCRIPT}`),
      "/contact": sitePage("Contact us", `${CONTACT_FORM}${SCRIPT}`),
    },
    forwardTo(key),
  );
  const campaign = `${shop.origin}/landing?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=abc`;
  const { page, errors } = await newVisitor(browser);

  // The ad's link, with a fragment; then the contact page through the site's own link.
  await page.goto(`${campaign}#pricing`);
  await expect.poll(() => storedRecord(page)).not.toBeNull();
  await page.getByRole("link", { name: "Contact us" }).click();
  await expect(page).toHaveURL(`${shop.origin}/contact`);
  await expect(page.locator('input[name="first_utm_source"]')).toHaveValue("google");
  const firstLead = await leadOf(team.id, await send(page, "Ada Lovelace", "ada@example.com"));
  const firstSeen = (firstLead.extraFields as Record<string, string>).first_seen_at ?? "";
  expect(firstSeen).toMatch(ISO_TIME);
  expect([firstLead.utmSource, firstLead.utmMedium, firstLead.utmCampaign, firstLead.utmTerm]).toEqual(["google", "cpc", "spring", null]);
  expect(firstLead.extraFields).toEqual({
    // The last touch: on the first visit, the first touch itself. The contact page, reached
    // from the site's own page, changed nothing.
    gclid: "abc",
    landing_page: campaign,
    last_seen_at: firstSeen,
    first_utm_source: "google",
    first_utm_medium: "cpc",
    first_utm_campaign: "spring",
    first_gclid: "abc",
    first_landing_page: campaign,
    first_seen_at: firstSeen,
  });

  // Days later the visitor comes from a newsletter's page on another site.
  const winter = `${shop.origin}/landing?utm_source=newsletter&utm_medium=email&utm_campaign=winter`;
  const news = await site({ "/": sitePage("News", `<p><a href="${winter}">Winter offer</a></p>`) });
  await page.goto(`${news.origin}/`);
  await page.getByRole("link", { name: "Winter offer" }).click();
  await expect(page).toHaveURL(winter);
  await page.getByRole("link", { name: "Contact us" }).click();
  await expect(page.locator('input[name="utm_source"]')).toHaveValue("newsletter");
  const secondLead = await leadOf(team.id, await send(page, "Grace Hopper", "grace@example.com"));
  const extra = secondLead.extraFields as Record<string, string>;
  expect([secondLead.utmSource, secondLead.utmMedium, secondLead.utmCampaign]).toEqual(["newsletter", "email", "winter"]);
  expect(extra.last_seen_at! > firstSeen).toBe(true);
  expect(extra).toEqual({
    landing_page: winter,
    referrer: `${news.origin}/`,
    last_seen_at: expect.stringMatching(ISO_TIME),
    first_utm_source: "google",
    first_utm_medium: "cpc",
    first_utm_campaign: "spring",
    first_gclid: "abc",
    first_landing_page: campaign,
    first_seen_at: firstSeen,
  });
  expect(errors).toEqual([]);
});

test("a web form's post (the snippet loads the script) and the hosted form page keep the attribution as extra fields", async ({
  browser,
}) => {
  const team = await newTeam();
  const pages: Record<string, string> = {};
  const shop = await site(pages);
  const formId = await createWebForm({
    teamId: team.id,
    settings: { name: "Contact", allowedOrigins: [shop.origin], sourceId: null, successUrl: null, challenge: false },
    createdById: null,
    actor: CLI_ACTOR,
  });
  pages["/contact"] = sitePage("Contact us", htmlSnippet({ id: formId, challenge: false }, BASE_URL));
  const { page, errors } = await newVisitor(browser);
  const landing = `${shop.origin}/contact?utm_source=linkedin&utm_medium=social&li_fat_id=L1`;
  await page.goto(landing);
  await expect(page.locator('input[name="first_li_fat_id"]')).toHaveValue("L1");
  await page.getByLabel("Name").fill("Katherine Johnson");
  await page.getByLabel("Message").fill("About the launch");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(new RegExp(`/f/${formId}/thanks$`));
  const [lead] = await db().lead.findMany({ where: { teamId: team.id } });
  const extra = lead!.extraFields as Record<string, string>;
  expect([lead!.formId, lead!.utmSource, lead!.utmMedium]).toEqual([formId, "linkedin", "social"]);
  expect(extra).toEqual({
    message: "About the launch",
    li_fat_id: "L1",
    landing_page: landing,
    last_seen_at: expect.stringMatching(ISO_TIME),
    first_utm_source: "linkedin",
    first_utm_medium: "social",
    first_li_fat_id: "L1",
    first_landing_page: landing,
    first_seen_at: extra.last_seen_at,
  });

  // The hosted form page loads the script from the app under its own Content Security Policy.
  // Next's scripts are held back a little, so that the inputs are in the server-rendered form
  // before React hydrates it: hydration keeps them and reports no mismatch on the console.
  const hosted = await (await browser.newContext()).newPage();
  const problems: string[] = [];
  hosted.on("pageerror", (error) => problems.push(error.message));
  hosted.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  await hosted.route("**/_next/static/chunks/**", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const hostedUrl = `${BASE_URL}/f/${formId}?utm_source=qr&utm_campaign=launch`;
  await hosted.goto(hostedUrl);
  await expect(hosted.locator('form input[name="utm_campaign"]')).toHaveValue("launch");
  await hosted.getByLabel("Name").fill("Mary Jackson");
  await hosted.getByRole("button", { name: "Send" }).click();
  await expect(hosted.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  const hostedLead = await db().lead.findFirstOrThrow({ where: { teamId: team.id, firstName: "Mary" } });
  expect([hostedLead.utmSource, hostedLead.utmCampaign]).toEqual(["qr", "launch"]);
  expect(hostedLead.extraFields).toMatchObject({ landing_page: hostedUrl, first_utm_campaign: "launch", first_landing_page: hostedUrl });
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await hosted.context().close();
});

test('data-consent="wait": no storage and no inputs until LeadIntake.consent(), then this visit is recorded', async ({ browser }) => {
  const waiting = `<script src="${BASE_URL}/api/widget/attribution.js" data-consent="wait" async></script>`;
  const shop = await site({
    "/": sitePage("Home", `<p><a href="/contact">Contact us</a></p>${waiting}`),
    "/contact": sitePage("Contact us", `${CONTACT_FORM}${waiting}`),
  });
  const { page, errors } = await newVisitor(browser);
  await page.goto(`${shop.origin}/?utm_source=google`);
  await page.waitForFunction(() => typeof (window as { LeadIntake?: { consent?: unknown } }).LeadIntake?.consent === "function");
  await page.getByRole("link", { name: "Contact us" }).click();
  await page.waitForFunction(() => typeof (window as { LeadIntake?: { consent?: unknown } }).LeadIntake?.consent === "function");
  expect(await storedRecord(page)).toBeNull();
  expect(await addedInputs(page)).toEqual({});
  expect(
    await page.evaluate(() => (window as unknown as { LeadIntake: { attribution: () => unknown } }).LeadIntake.attribution()),
  ).toBeNull();
  expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);

  await page.evaluate(() => (window as unknown as { LeadIntake: { consent: () => void } }).LeadIntake.consent());
  // Only this visit is recorded: the campaign visit before consent left nothing.
  const contact = `${shop.origin}/contact`;
  expect(await addedInputs(page)).toEqual({
    landing_page: contact,
    last_seen_at: expect.stringMatching(ISO_TIME),
    first_landing_page: contact,
    first_seen_at: expect.stringMatching(ISO_TIME),
  });
  expect(JSON.parse((await storedRecord(page))!)).toMatchObject({ v: 1, first: { landing_page: contact } });
  expect(errors).toEqual([]);
});

test("forms added after load get the inputs too; a form marked off gets none", async ({ browser }) => {
  const shop = await site({
    "/": sitePage("Home", `<form id="search" data-lead-intake="off"><input name="q"></form><div id="later"></div>${SCRIPT}`),
  });
  const { page, errors } = await newVisitor(browser);
  await page.goto(`${shop.origin}/?utm_source=google&msclkid=M1`);
  await expect.poll(() => storedRecord(page)).not.toBeNull();
  // As a site's script or a framework renders it: a form, then a container holding another.
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.id = "built";
    form.innerHTML = '<input name="name">';
    document.getElementById("later")!.append(form);
    const box = document.createElement("section");
    box.innerHTML = '<form id="nested"><input name="email"></form>';
    document.body.append(box);
  });
  for (const form of ["#built", "#nested"]) {
    await expect.poll(() => addedInputs(page, form)).toMatchObject({ utm_source: "google", msclkid: "M1", first_msclkid: "M1" });
  }
  // Filling again adds nothing: one input per name. A form marked "off" gets none.
  await page.evaluate(() => document.getElementById("later")!.append(document.createElement("p")));
  expect(await page.locator('#built input[name="utm_source"]').count()).toBe(1);
  expect(await page.locator("#search input").count()).toBe(1);
  expect(errors).toEqual([]);
});

test("storage that throws (a sandbox, a private mode): no page error, the inputs come from memory", async ({ browser }) => {
  const shop = await site({ "/": sitePage("Contact us", `${CONTACT_FORM}${SCRIPT}`) });
  const { page, errors } = await newVisitor(browser);
  await page.addInitScript(() => {
    Object.defineProperty(window, "localStorage", {
      configurable: true,
      get() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    });
  });
  await page.goto(`${shop.origin}/?utm_source=google&ttclid=T1`);
  await expect.poll(() => addedInputs(page)).toMatchObject({ utm_source: "google", ttclid: "T1", first_utm_source: "google" });
  expect(
    await page.evaluate(() => {
      try {
        return typeof localStorage;
      } catch {
        return "throws";
      }
    }),
  ).toBe("throws");
  expect(errors).toEqual([]);
});

test("a form's own utm_source field wins: no duplicate, and create_lead takes the lead", async ({ browser }) => {
  const { team, key } = await newTeamWithKey();
  const form = CONTACT_FORM.replace("<button", '<input type="hidden" name="utm_source" value="partner-site"><button');
  const shop = await site({ "/": sitePage("Contact us", `${form}${SCRIPT}`) }, forwardTo(key));
  const { page, errors } = await newVisitor(browser);
  await page.goto(`${shop.origin}/?utm_source=google&utm_medium=cpc`);
  await expect.poll(() => addedInputs(page)).toMatchObject({ utm_medium: "cpc", first_utm_source: "google" });
  await expect(page.locator('[name="utm_source"]')).toHaveCount(1);
  await expect(page.locator('[name="utm_source"]')).toHaveValue("partner-site");
  const lead = await leadOf(team.id, await send(page, "Dorothy Vaughan", "dorothy@example.com"));
  expect([lead.utmSource, lead.utmMedium]).toEqual(["partner-site", "cpc"]);
  expect(lead.extraFields).toMatchObject({ first_utm_source: "google", first_utm_medium: "cpc" });
  expect(errors).toEqual([]);
});
