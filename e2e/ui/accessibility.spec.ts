import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { createInvite } from "../../lib/teams/invite-changes";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { recordLeadConsent, setFormConsent } from "../../lib/consent/consent-changes";
import { createPasswordReset } from "../../lib/users/password-reset-changes";
import { addMember } from "../../lib/teams/team-store";
import { db } from "../../lib/db/client";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-changes";
import { insertDestination } from "../../lib/chat/chat-destination-store";
import { ANY_LEAD } from "../../lib/chat/new-lead-filter";
import {
  BASE_URL,
  CREATE_LEAD,
  authHeaders,
  newTeam,
  newTeamWithUser,
  newUser,
  signInWithSession,
  uniqueSlug,
  type TestUser,
} from "../support/fixtures";
import { blockingViolations, checkAtBothWidths, checkPage, VIEWPORTS } from "../support/accessibility-check";
import { expect, test } from "../support/test";

// The team's rule: every page passes axe-core's WCAG 2.2 A/AA rules with no serious or
// critical violation, on a desktop and on a phone, dialogs included. Each page is checked
// softly, so one run lists every page that fails. At 390 px no page may scroll sideways.

/** Everything the pages show: leads (a duplicate pair, a list extra field), a key with its requests, an invite, a custom source. */
async function teamWithContent() {
  const { team, user: owner } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member" });
  // A second team makes the header's team switcher a real control.
  const other = await newTeam();
  await addMember({ teamId: other.id, userId: owner.id, role: "admin" });
  await addLeadSource(team.id, "Website");
  const key = await createApiKey({ teamId: team.id, description: "Website form" });
  const post = (body: string, type: string, headers = authHeaders(key)) =>
    fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { ...headers, "Content-Type": type }, body });

  const urlencoded = "application/x-www-form-urlencoded";
  const created = await post(
    "name=Grace+Hopper&email=grace%40navy.example&organization=US+Navy&phone=12345&source=Website&interests=a&interests=b&favourite_language=COBOL",
    urlencoded,
  );
  expect(created.status).toBe(201);
  const { lead_id: leadId } = (await created.json()) as { lead_id: string };
  expect((await post("name=Grace+H.&email=grace%40navy.example&website=n%2Fa", urlencoded)).status).toBe(201);
  expect((await post('{"email":"no-name@example.com"}', "application/json")).status).toBe(422);
  // A lead with every field of the spec filled, and a skipped one, as its page shows them.
  const everyField = await post(
    JSON.stringify({
      name: "Katherine Johnson",
      email: "katherine@nasa.example",
      phone: "+1 757 864 1000",
      mobile_no: "+44 20 7946 0958",
      source: "Website",
      organization: "NASA Langley",
      job_title: "Research mathematician",
      website: "nasa.example",
      territory: "Virginia",
      industry: "Aerospace",
      annual_revenue: "1000000",
      no_of_employees: 5000,
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "orbit",
      utm_term: "trajectory",
      utm_content: "a rather long campaign content value that must wrap on a phone without scrolling sideways",
      favourite_orbit: ["low", "geostationary"],
      notes: "Calculated the trajectory for Freedom 7.",
    }),
    "application/json",
  );
  expect(everyField.status).toBe(201);
  const { lead_id: everyFieldLeadId } = (await everyField.json()) as { lead_id: string };
  // A spam post through a key that runs the spam checks: answered as a lead, kept in Leads → Spam.
  const checked = await createApiKey({ teamId: team.id, description: "Spam-checked site" });
  await db().apiKey.update({ where: { id: checked.keyId }, data: { spamChecks: true } });
  const spam = JSON.stringify({ name: "Best SEO http://seo-offer.example/now", email: "offer@mailinator.com" });
  expect((await post(spam, "application/json", authHeaders(checked))).status).toBe(201);
  // Keys in each state the list shows: one to copy, one to roll, one expired.
  const copyKey = await createApiKey({ teamId: team.id, description: "Copied in the check" });
  const rollKey = await createApiKey({ teamId: team.id, description: "Rolled in the check" });
  await createApiKey({ teamId: team.id, description: "Expired integration", expiresAt: new Date(Date.now() - 60_000) });

  // A webhook endpoint with a delivered and a failed (resendable) attempt in its log.
  const endpoint = await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/leads/a-rather-long-path-that-must-wrap-on-a-phone",
    description: "CRM sync",
    events: ["lead.created"],
    actor: { userId: owner.id, ip: null, via: "web" },
  });
  for (const [n, ok] of [
    [1, true],
    [2, false],
  ] as const) {
    const job = await db().job.create({
      data: {
        id: `job_a11y_${endpoint.id}_${n}`,
        teamId: team.id,
        kind: "webhook",
        endpointId: endpoint.id,
        eventId: `evt_a11y_${n}`,
        eventType: "lead.created",
        payload: "{}",
        state: ok ? "delivered" : "failed",
        attempts: 1,
        maxAttempts: 9,
        runAt: new Date(),
      },
    });
    await db().webhookAttempt.create({
      data: {
        jobId: job.id,
        endpointId: endpoint.id,
        eventId: job.eventId,
        eventType: job.eventType,
        attempt: 1,
        startedAt: new Date(),
        durationMs: 120,
        statusCode: ok ? 200 : 500,
        ok,
        error: ok ? null : "HTTP 500",
        responseExcerpt: ok ? "ok" : '{"error":"upstream timeout"}',
      },
    });
  }

  const invite = await createInvite({
    teamId: team.id,
    email: `${uniqueSlug("invitee")}@example.test`,
    role: "admin",
    createdById: owner.id,
  });
  if (invite === "already-member") throw new Error("a fresh address is never a member");
  const formId = await createWebForm({
    teamId: team.id,
    settings: { name: "Contact form", allowedOrigins: ["https://www.example.com"], sourceId: null, successUrl: null, challenge: true },
    createdById: owner.id,
    actor: CLI_ACTOR,
  });
  return {
    team,
    other,
    owner,
    member,
    keyId: key.keyId,
    copyKeyId: copyKey.keyId,
    rollKeyId: rollKey.keyId,
    leadId,
    everyFieldLeadId,
    inviteToken: invite.token,
    formId,
    endpointId: endpoint.id,
  };
}

test("the check itself reports what it must: low contrast, a nameless button, only inside `include` when given", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><title>Probe</title><body><main>
    <p id="faint" style="color:#94a3b8;background:#f1f5f9">A masked secret in a light grey</p>
    <div id="nameless"><button></button></div></main></body></html>`);
  const all = await blockingViolations(page);
  expect(all.map((violation) => violation.split(" ")[0]).sort()).toEqual(["button-name", "color-contrast"]);
  expect(await blockingViolations(page, "#nameless")).toEqual([expect.stringMatching(/^button-name \(critical\)/)]);
});

const [desktop, phone] = VIEWPORTS;

test.describe(`every page and dialog at ${desktop.width} and ${phone.width} px`, () => {
  // Each state is reached once, at 1280 px, and checked there and at 390 px in the same page
  // load (checkAtBothWidths): a test per width seeded, signed in and walked to every state
  // twice, for the same two axe runs (239 s of test time before).
  test.use({ viewport: { width: desktop.width, height: desktop.height } });
  // About thirty pages and dialogs in several tests, each on a team of its own, so the
  // workers share them out: one test of all of them was the last to finish in every run.
  // Each page's axe run takes one to four seconds on the shared 2-core machines.
  test.describe.configure({ timeout: 180_000 });

  test("signed out: sign-in, invites, not found", async ({ page }) => {
    const { team, owner, inviteToken } = await teamWithContent();
    await page.goto("/signin");
    await expect(page.getByRole("heading", { name: "Sign in to Lead Intake" })).toBeVisible();
    await checkAtBothWidths(page, "sign-in");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect" })).toHaveText("Incorrect email or password.");
    await checkAtBothWidths(page, "sign-in with an error");

    await page.goto(`/invite/${inviteToken}`);
    await expect(page.getByRole("heading", { name: `Join ${team.name}` })).toBeVisible();
    await checkAtBothWidths(page, "invite (valid link)");
    await page.goto(`/invite/${"x".repeat(43)}`);
    await expect(page.getByRole("heading", { name: "Invite not valid" })).toBeVisible();
    await checkAtBothWidths(page, "invite (invalid link)");

    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Lead Intake" })).toBeVisible();
    await checkAtBothWidths(page, "home, signed out");

    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await checkAtBothWidths(page, "not found");

    const reset = await createPasswordReset(owner.email);
    await page.goto(`/reset/${reset!.token}`);
    await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
    await checkAtBothWidths(page, "password reset link");
    await page.goto(`/reset/${"x".repeat(43)}`);
    await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
    await checkAtBothWidths(page, "password reset link (invalid)");
  });

  test("leads: list, menus, bulk and erase dialogs, detail, merge, import", async ({ page }) => {
    const { team, other, owner, leadId, everyFieldLeadId } = await teamWithContent();
    // Signed in with the session cookie the form would leave (the form and its error are checked above).
    await signInWithSession(page.context(), page, owner);
    await expect(page).toHaveURL(new RegExp(`/t/(${team.slug}|${other.slug})/leads$`));
    await page.goto(`/t/${team.slug}`);
    await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/leads$`));
    await expect(page.getByRole("heading", { name: "Leads" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: leadId })).toBeVisible();
    await checkAtBothWidths(page, "team home → leads");
    await page.getByRole("button", { name: /^Switch team/ }).click();
    await expect(page.getByRole("list", { name: "Your teams" })).toBeVisible();
    // Only the open menu: it overlays the links below it, which axe's target-size then
    // measures as smaller than 24 px. That is a transient popup, not a small target;
    // the page under it was checked just above with the menu closed.
    await checkAtBothWidths(page, "the open team switcher", "#team-switcher-list");
    await page.keyboard.press("Escape");
    // The header menu is the phone's: opened and checked at 390 px only.
    await page.setViewportSize({ width: phone.width, height: phone.height });
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await checkPage(page, "the open header menu (390 px)", "#header-menu");
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: desktop.width, height: desktop.height });

    // The spam post is not in the list; Leads → Spam has it, with its reasons.
    await expect(page.getByText("Best SEO")).toHaveCount(0);
    await page.getByRole("link", { name: "Spam (1)" }).click();
    await expect(page.getByRole("heading", { name: "Spam" })).toBeVisible();
    const quarantined = page.getByRole("row").filter({ hasText: "Best SEO http://seo-offer.example/now" });
    await expect(quarantined).toContainText("Link, address or markup in a name (name)");
    await expect(quarantined).toContainText("Disposable email address (email)");
    await checkAtBothWidths(page, "leads → spam");
    // The search, and a row selected for the bulk "Not spam".
    await page.getByRole("searchbox", { name: "Search spam" }).fill("SEO");
    await page.getByRole("searchbox", { name: "Search spam" }).press("Enter");
    await expect(page.getByText("1 submission matches “SEO”")).toBeVisible();
    await page.getByRole("checkbox", { name: /^Select CRM-LEAD-/ }).check();
    await expect(page.getByRole("status").filter({ hasText: "1 submission selected" })).toBeVisible();
    await checkAtBothWidths(page, "leads → spam, searched, a row selected");
    await page.getByRole("button", { name: "Empty spam" }).click();
    await expect(page.getByRole("dialog", { name: "Empty spam?" })).toBeVisible();
    await checkAtBothWidths(page, "leads → spam, empty dialog");
    await page.keyboard.press("Escape");
    // "Not spam" for the selected: the submission leaves the quarantine for the list.
    await page.getByRole("button", { name: "Not spam (1)" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 submission released into the lead list." })).toBeVisible();
    await expect(page.getByText("No submission in the quarantine matches your search.")).toBeVisible();
    await page.goto(`/t/${team.slug}/leads`);
    await expect(page.getByRole("row").filter({ hasText: "Best SEO" })).toBeVisible();
    // Leads → Overview: its charts, tables and range controls.
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Leads per day by channel group/ })).toBeVisible();
    await checkAtBothWidths(page, "leads → overview");

    await page.goto(`/t/${team.slug}/leads?q=nobody-matches-this`);
    await expect(page.getByRole("heading", { name: "No leads match your search" })).toBeVisible();
    await checkAtBothWidths(page, "leads, empty search");

    await page.goto(`/t/${team.slug}/leads?duplicates=1&sort=oldest`);
    await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();
    await page.getByRole("checkbox", { name: `Select ${leadId}` }).check();
    await checkAtBothWidths(page, "leads, filtered, a row selected");
    await page.getByRole("button", { name: "Delete selected" }).click();
    await expect(page.getByRole("dialog", { name: "Delete 1 lead?" })).toBeVisible();
    await checkAtBothWidths(page, "leads, bulk delete dialog");
    await page.keyboard.press("Escape");

    await page.goto(`/t/${team.slug}/leads/erase?who=grace%40navy.example`);
    await expect(page.getByRole("region", { name: "2 leads match" })).toBeVisible();
    await checkAtBothWidths(page, "erase a person, two leads");
    await page.getByRole("button", { name: "Erase 2 leads" }).click();
    await expect(page.getByRole("dialog", { name: "Erase 2 leads?" })).toBeVisible();
    await checkAtBothWidths(page, "erase a person, dialog");
    await page.keyboard.press("Escape");

    // A lead with consent evidence: its Consent section (docs/consent.md).
    const consent = {
      status: "given" as const,
      text: "Emails about the offer",
      purpose: "Marketing emails",
      note: "By phone",
      consentAt: new Date(),
    };
    await recordLeadConsent({ teamId: team.id, leadId, consent, actor: CLI_ACTOR });
    await page.goto(`/t/${team.slug}/leads/${leadId}`);
    await expect(page.getByRole("region", { name: /Consent/ }).getByText("Emails about the offer")).toBeVisible();
    await expect(
      page.getByRole("region", { name: "Extra Fields" }).getByRole("list", { name: "interests" }).getByRole("listitem"),
    ).toHaveText(["a", "b"]);
    await checkAtBothWidths(page, "lead detail");
    await page.getByRole("button", { name: "Delete lead" }).click();
    await expect(page.getByRole("dialog", { name: `Delete ${leadId}?` })).toBeVisible();
    await checkAtBothWidths(page, "lead detail, delete dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Spam", exact: true }).click();
    await expect(page.getByRole("dialog", { name: `Move ${leadId} to spam?` })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Also block this sender (their e-mail address)" })).toBeVisible();
    await checkAtBothWidths(page, "lead detail, spam dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Record consent" }).click();
    await expect(page.getByRole("dialog", { name: "Record consent" })).toBeVisible();
    await checkAtBothWidths(page, "lead detail, record consent dialog");
    await page.keyboard.press("Escape");
    await page.goto(`/t/${team.slug}/leads/${everyFieldLeadId}`);
    await expect(page.getByRole("heading", { name: "Katherine Johnson" })).toBeVisible();
    await checkAtBothWidths(page, "lead detail, every field filled");
    await page.goto(`/t/${team.slug}/leads/${leadId}/merge`);
    await expect(page.getByRole("button", { name: `Merge 1 lead into ${leadId}` })).toBeVisible();
    await checkAtBothWidths(page, "merge duplicates");

    // Leads → Import: upload, mapping, preview, result with its undo dialog.
    await page.goto(`/t/${team.slug}/leads/import`);
    await expect(page.getByRole("heading", { name: "Import leads" })).toBeVisible();
    await checkAtBothWidths(page, "import: upload");
    const csv =
      "Full name,E-mail,Phone,A rather long column name that must wrap on a phone\nAda Lovelace,ada@example.com,12,x\n,nobody@example.com,,y\n";
    await page
      .getByLabel("CSV file", { exact: true })
      .setInputFiles({ name: "contacts.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("heading", { name: "Map the columns of contacts.csv" })).toBeVisible();
    await checkAtBothWidths(page, "import: mapping");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("region", { name: "Preview rows" })).toBeVisible();
    await checkAtBothWidths(page, "import: preview");
    await page.getByRole("button", { name: "Import 1 row" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
    await checkAtBothWidths(page, "import: result");
    await page.getByRole("button", { name: "Undo import" }).click();
    await expect(page.getByRole("dialog", { name: "Undo this import?" })).toBeVisible();
    await checkAtBothWidths(page, "import: undo dialog");
    await page.keyboard.press("Escape");
    await page.goto(`/t/${team.slug}/leads/import`);
    await expect(page.getByRole("region", { name: "Recent imports" })).toBeVisible();
    await checkAtBothWidths(page, "import: upload with recent imports");

    await page.goto(`/t/${team.slug}/leads/CRM-LEAD-999999999`);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await checkAtBothWidths(page, "not found inside a team");
  });

  test("team settings: general, members, sources, API keys, request log, web forms, hosted form", async ({ page }) => {
    const { team, owner, member, keyId, formId } = await teamWithContent();
    const settings = `/t/${team.slug}/settings`;
    // A form without the proof-of-work and a spam post to it: its card shows "Spam (24 h)", as the checked key's does.
    const openFormId = await createWebForm({
      teamId: team.id,
      settings: { name: "Open form", allowedOrigins: ["https://www.example.com"], sourceId: null, successUrl: null, challenge: false },
      createdById: owner.id,
      actor: CLI_ACTOR,
    });
    const formSpam = await fetch(`${BASE_URL}/api/forms/${openFormId}`, {
      method: "POST",
      headers: { Origin: "https://www.example.com", Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Best+SEO+http%3A%2F%2Fseo-offer.example%2Fnow&email=offer%40mailinator.com",
    });
    expect(formSpam.status).toBe(201);
    await signInWithSession(page.context(), page, owner);
    await page.goto(settings);
    await expect(page).toHaveURL(new RegExp(`${settings}/general$`));
    await expect(page.getByRole("heading", { name: "General" })).toBeVisible();
    await checkAtBothWidths(page, "settings: general");

    await page.goto(`${settings}/members`);
    await expect(page.getByRole("region", { name: "Pending invites" })).toBeVisible();
    await checkAtBothWidths(page, "settings: members");
    await page.getByRole("button", { name: `Remove ${member.email}` }).click();
    await expect(page.getByRole("dialog", { name: "Remove member?" })).toBeVisible();
    await checkAtBothWidths(page, "settings: members, remove dialog");
    await page.keyboard.press("Escape");

    await page.goto(`${settings}/sources`);
    await expect(page.getByRole("list", { name: "Lead sources" })).toContainText("Website");
    await checkAtBothWidths(page, "settings: lead sources");
    await page.getByRole("button", { name: "Delete source Website" }).click();
    await expect(page.getByRole("dialog", { name: 'Delete source "Website"?' })).toBeVisible();
    await checkAtBothWidths(page, "settings: lead sources, delete dialog");
    await page.keyboard.press("Escape");

    await page.goto(`${settings}/api-keys`);
    await expect(page.getByRole("list", { name: "API keys" })).toContainText(keyId);
    await expect(page.getByRole("link", { name: "1 submission in Leads → Spam" })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys");
    await page.getByRole("button", { name: "Generate Key" }).click();
    await expect(page.getByRole("dialog", { name: "Generate API key" })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys, generate dialog");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Generate API key" })).toBeHidden();
    await page.getByRole("button", { name: `Delete API key ${keyId}` }).click();
    await expect(page.getByRole("dialog", { name: "Delete API key?" })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys, delete dialog");
    await page.keyboard.press("Escape");

    await page.goto(`${settings}/api-keys/${keyId}`);
    // A header row and four requests: two created leads, a refused body, the every-field lead.
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(5);
    await checkAtBothWidths(page, "settings: a key's request log");

    await page.goto(`${settings}/web-forms`);
    await expect(page.getByRole("list", { name: "Web forms" })).toContainText(formId);
    await expect(page.getByRole("link", { name: "1 submission in Leads → Spam" })).toBeVisible();
    await checkAtBothWidths(page, "settings: web forms");
    // The form asks for consent: its settings, versions, snippet and hosted page show it.
    const asked = {
      text: "I agree to receive emails.",
      purpose: "Marketing emails",
      policyUrl: "https://example.com/privacy",
      required: true,
    };
    await setFormConsent({ teamId: team.id, formId, settings: asked, actor: CLI_ACTOR });
    await page.goto(`${settings}/web-forms/${formId}`);
    await expect(page.getByRole("region", { name: "HTML form snippet" })).toContainText(formId);
    await expect(page.getByRole("list", { name: "Consent versions" })).toBeVisible();
    await checkAtBothWidths(page, "settings: a web form");
    await page.getByRole("button", { name: "Delete web form Contact form" }).click();
    await expect(page.getByRole("dialog", { name: "Delete Contact form?" })).toBeVisible();
    await checkAtBothWidths(page, "settings: a web form, delete dialog");
    await page.keyboard.press("Escape");

    await page.goto(`/f/${formId}`);
    await expect(page.getByText("I'm not a robot", { exact: true })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: /I agree to receive emails/ })).toBeVisible();
    await checkAtBothWidths(page, "hosted form page");
    await page.goto(`/f/${formId}/thanks`);
    await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
    await checkAtBothWidths(page, "hosted thank-you page");
  });

  test("team settings: webhooks, audit log, API keys after a copy and a roll", async ({ page }) => {
    const { team, owner, copyKeyId, rollKeyId, endpointId } = await teamWithContent();
    const settings = `/t/${team.slug}/settings`;
    await signInWithSession(page.context(), page, owner);
    await page.goto(`${settings}/webhooks`);
    await expect(page.getByRole("list", { name: "Webhook endpoints" })).toContainText("CRM sync");
    await checkAtBothWidths(page, "settings: webhooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("dialog", { name: "Add webhook endpoint" })).toBeVisible();
    await checkAtBothWidths(page, "settings: webhooks, add dialog");
    await page.keyboard.press("Escape");
    await page.goto(`${settings}/webhooks/${endpointId}`);
    await expect(page.getByRole("region", { name: "Delivery log" }).getByRole("row")).toHaveCount(3);
    await page.getByRole("button", { name: "Reveal signing secret" }).click();
    await expect(page.getByLabel("Signing secret", { exact: true })).toBeVisible();
    // The reveal's transition has ended: its buttons are enabled again (axe measured them
    // while they changed from their disabled colours).
    await expect(page.getByRole("button", { name: "Hide signing secret" })).toBeEnabled();
    await expect(page.getByRole("button", { name: "Disable", exact: true })).toBeEnabled();
    await checkAtBothWidths(page, "settings: a webhook endpoint and its delivery log");
    await page.getByRole("button", { name: "Edit endpoint" }).click();
    await expect(page.getByRole("dialog", { name: "Edit webhook endpoint" })).toBeVisible();
    await checkAtBothWidths(page, "settings: webhook endpoint, edit dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Rotate signing secret" }).click();
    await expect(page.getByRole("dialog", { name: "Rotate signing secret" })).toBeVisible();
    await checkAtBothWidths(page, "settings: webhook endpoint, rotate dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByRole("dialog", { name: "Delete webhook endpoint?" })).toBeVisible();
    await checkAtBothWidths(page, "settings: webhook endpoint, delete dialog");
    await page.keyboard.press("Escape");

    await page.goto(`${settings}/audit`);
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await checkAtBothWidths(page, "settings: audit log");
    await page.goto(`${settings}/routing`);
    await expect(page.getByRole("heading", { name: "Lead Routing" })).toBeVisible();
    await checkAtBothWidths(page, "settings: lead routing");
    await page.goto(`${settings}/api-keys`);
    await page
      .getByRole("button", { name: /^Edit key / })
      .first()
      .click();
    await expect(page.getByRole("dialog", { name: "Edit API key" })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys, edit dialog");
    await page.keyboard.press("Escape");
    await page
      .getByRole("button", { name: /^Roll key / })
      .first()
      .click();
    await expect(page.getByRole("dialog", { name: "Roll API key" })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys, roll dialog");
    await page.keyboard.press("Escape");

    // The list as it looks after a copy and a roll, with an expired key in it.
    const copied = `key ${copyKeyId.slice(0, 4)}…, Copied in the check`;
    await page.getByRole("button", { name: `Copy secret of ${copied}` }).click();
    // "Copied" once the server has recorded the copy (the button reads "Copying…" until then).
    await expect(page.getByRole("button", { name: `Copied: secret of ${copied}` })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Secret copied" })).toBeVisible();
    await page.getByRole("button", { name: `Roll key ${rollKeyId.slice(0, 4)}…, Rolled in the check` }).click();
    const roll = page.getByRole("dialog", { name: "Roll API key" });
    await roll.getByRole("button", { name: "Roll key" }).click();
    await expect(roll).toBeHidden();
    await expect(page.getByRole("heading", { name: "Rolled in the check" })).toHaveCount(2);
    await expect(page.getByText("Expired", { exact: true })).toBeVisible();
    await checkAtBothWidths(page, "settings: API keys after a copy and a roll, with an expired key");
  });

  test("team settings: spam, its lists and a refused line, and as a member", async ({ page, browser, baseURL }) => {
    const { team, user: owner } = await newTeamWithUser("owner");
    const member = await newUser({ team, role: "member" });
    // Written as the store keeps them (lib/spam is not imported here: its domain lists are JSON modules).
    const entries = [
      ["blocked_word", "backlinks"],
      ["blocked_word", "seo services"],
      ["blocked_ip", "203.0.113.0/24"],
      ["allow_email_domain", "partner.example"],
    ];
    await db().spamListEntry.createMany({ data: entries.map(([list, value]) => ({ teamId: team.id, list: list!, value: value! })) });
    const spam = `/t/${team.slug}/settings/spam`;
    await signInWithSession(page.context(), page, owner);
    await page.goto(spam);
    await expect(page.getByRole("list", { name: "Blocked words" })).toContainText("seo services");
    await checkAtBothWidths(page, "settings: spam");
    const box = page.getByLabel("Add to Blocked IP ranges, one per line");
    await box.fill("198.51.100.0/24\nnot-an-ip");
    await page.locator("form").filter({ has: box }).getByRole("button", { name: "Add" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "One line is not valid; nothing was added." })).toBeVisible();
    await expect(page.getByText('Line 2: "not-an-ip" is not an IP address')).toBeVisible();
    await checkAtBothWidths(page, "settings: spam, a refused line");

    const context = await browser.newContext({ baseURL, viewport: page.viewportSize() });
    try {
      const memberPage = await context.newPage();
      await signInWithSession(context, memberPage, member);
      await memberPage.goto(spam);
      await expect(memberPage.getByLabel("Spam threshold (points)")).toBeDisabled();
      await expect(memberPage.getByRole("list", { name: "Blocked IP ranges" })).toContainText("203.0.113.0/24");
      await checkAtBothWidths(memberPage, "settings: spam as a member");
    } finally {
      await context.close();
    }
  });

  test("team settings: notifications, a chat destination with its log, add and edit dialogs", async ({ page }) => {
    const { team, user: owner } = await newTeamWithUser("owner");
    const { id } = await db().$transaction((tx) =>
      insertDestination(tx, {
        teamId: team.id,
        platform: "slack",
        url: "https://hooks.slack.com/services/T0A11Y/B0A11Y/a11ysecret",
        name: "#sales",
        postNewLeads: true,
        newLeadFilter: ANY_LEAD,
        postAssignments: true,
        postReminders: false,
        postRepeats: true,
        includeFields: ["email"],
        createdById: null,
      }),
    );
    await db().chatDelivery.create({
      data: {
        destinationId: id,
        event: "test",
        attempt: 1,
        startedAt: new Date(),
        durationMs: 12,
        statusCode: 200,
        ok: true,
        answer: "ok",
      },
    });
    await signInWithSession(page.context(), page, owner);
    await page.goto(`/t/${team.slug}/settings/notifications`);
    await expect(page.getByRole("region", { name: "Delivery log of #sales" })).toContainText("200");
    await checkAtBothWidths(page, "settings: notifications");
    await page.getByRole("button", { name: "Add chat destination" }).click();
    await expect(page.getByRole("dialog", { name: "Add chat destination" })).toBeVisible();
    await checkAtBothWidths(page, "settings: notifications, add dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Edit #sales" }).click();
    await expect(page.getByRole("dialog", { name: "Edit chat destination" })).toBeVisible();
    await checkAtBothWidths(page, "settings: notifications, edit dialog");
  });

  test("account pages, a member's API keys page, the home page of a user without a team", async ({ page, browser, baseURL }) => {
    const { team, owner, member, keyId } = await teamWithContent();
    const settings = `/t/${team.slug}/settings`;
    await signInWithSession(page.context(), page, owner);
    await page.goto("/teams/new");
    await expect(page.getByRole("heading", { name: "New team" })).toBeVisible();
    await checkAtBothWidths(page, "new team");
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
    await checkAtBothWidths(page, "account: change password");

    const signedIn = async (user: TestUser) => {
      const context = await browser.newContext({ baseURL, viewport: page.viewportSize() });
      const userPage = await context.newPage();
      await signInWithSession(context, userPage, user);
      return { userPage, close: () => context.close() };
    };
    const asMember = await signedIn(member);
    try {
      await asMember.userPage.goto(`${settings}/api-keys`);
      await expect(asMember.userPage.getByRole("list", { name: "API keys" })).toContainText(keyId);
      await checkAtBothWidths(asMember.userPage, "settings: API keys as a member");
      // A key's page as a member: its settings shown, disabled.
      await asMember.userPage.goto(`${settings}/api-keys/${keyId}`);
      await expect(asMember.userPage.getByRole("switch", { name: "Run the spam checks" })).toBeDisabled();
      await checkAtBothWidths(asMember.userPage, "settings: a key's page as a member");
    } finally {
      await asMember.close();
    }
    const withoutTeam = await signedIn(await newUser());
    try {
      await expect(withoutTeam.userPage.getByText("not a member of any team yet")).toBeVisible();
      await checkAtBothWidths(withoutTeam.userPage, "home of a user without a team");
    } finally {
      await withoutTeam.close();
    }
  });
});
