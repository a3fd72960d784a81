import { createHmac } from "node:crypto";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { createConnection } from "../../lib/connections/connection-changes";
import { tallyExample } from "../../lib/connections/fixtures/tally-example";
import { webflowExample, webflowHeaders } from "../../lib/connections/fixtures/webflow-example";
import { db } from "../../lib/db/client";
import { checkAtBothWidths, checkPage, VIEWPORTS } from "../support/accessibility-check";
import { BASE_URL, newTeamWithUser, newUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Issue 30 in Chromium: an admin connects Tally in Team Settings → API Integration →
// Connections, reads the URL and the signing secret shown once, Tally posts its documented
// example (no name question) signed with that secret, the delivery waits in the log as
// "needs mapping" (its own page shows the body it keeps), the admin maps the "Text" question
// to the full name and replays it, and the lead is made; a member sees the connection and
// the delivery without their controls. Issue 40: the log is paged and its page stays small
// however big the kept bodies; a kept delivery is deleted from its page. Issue 46, step 4: the
// admin sets the connection's consent and maps Tally's "Checkboxes" question to it; the next
// submission's lead has "given" evidence of that version. The pages pass axe at 1280 and 390 px.

const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("base64");
const tallyPost = (url: string, body: string, secret: string) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "Tally-Signature": sign(body, secret) }, body });
const LOG = "The connection's deliveries, newest first";

test("connecting Tally in the UI: URL and secret shown once, a signed delivery, needs mapping, mapped and replayed into a lead", async ({
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("admin");
  const admin = await signInAs(user);
  await admin.goto(`/t/${team.slug}/settings/connections`);
  await expect(admin.getByText("No connections yet.")).toBeVisible();
  await checkPage(admin, "settings: connections, none yet");
  await admin.getByLabel("Form builder").selectOption({ label: "Tally" });
  await admin.getByLabel("Name").fill("Contact form");
  await admin.getByRole("button", { name: "Connect" }).click();

  const shown = admin.getByRole("region", { name: "Connection URL, shown once" });
  await expect(shown).toBeVisible();
  const url = await shown.getByRole("textbox", { name: "Connection URL" }).inputValue();
  const secret = await shown.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByRole("listitem").first()).toContainText("Integrations tab");
  await checkPage(admin, "settings: connections, URL and secret shown once");
  await saveScreenshot(admin, "connections");

  // Tally's example form has no name question: the delivery is kept, no lead is made.
  const body = JSON.stringify(tallyExample());
  const kept = await tallyPost(url, body, secret);
  expect(kept.status).toBe(202);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(0);

  await admin.getByRole("link", { name: "Open the connection" }).click();
  await expect(admin.getByRole("heading", { name: "Connection Contact form" })).toBeVisible();
  // Shown once: the connection's page has only the URL's last characters, never the secret.
  await expect(admin.getByText(url)).toHaveCount(0);
  await expect(admin.locator("body")).not.toContainText(secret);
  await expect(admin.getByRole("cell", { name: "Needs mapping 202" })).toBeVisible();
  await checkPage(admin, "settings: a connection with a delivery to map");

  // The delivery's own page: where each answer went, and the body it keeps.
  await admin.getByRole("table", { name: LOG }).getByRole("link").first().click();
  await expect(admin.getByRole("heading", { name: "Delivery to Contact form" })).toBeVisible();
  await expect(admin.getByRole("region", { name: "Body" })).toContainText(`"eventType":"FORM_RESPONSE"`);
  await expect(admin.getByText(/^application\/json · \d+ KB kept$/)).toBeVisible();
  // Tally's "Text" question, unmapped, went to an extra field of its name.
  await expect(
    admin
      .getByRole("list", { name: "Answers" })
      .getByRole("listitem")
      .filter({ hasText: /^TextExtra field “Text”$/ }),
  ).toHaveCount(1);
  await expect(admin.getByRole("button", { name: "Replay this delivery" })).toBeVisible();
  await checkPage(admin, "settings: a delivery kept as needs mapping");
  await admin.getByRole("link", { name: "← Connection Contact form" }).click();

  await admin.getByLabel("Text", { exact: true }).selectOption({ label: "Full name" });
  await admin.getByRole("button", { name: "Save mapping" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Mapping saved." })).toBeVisible();
  await admin.getByRole("button", { name: /^Replay the delivery of / }).click();
  await expect(admin.getByRole("cell", { name: "Lead created 201" })).toBeVisible();
  const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id } });
  expect([lead.firstName, lead.email, lead.connectionId]).toEqual(["Hello", "alice@example.com", expect.any(String)]);
  await expect(admin.getByRole("link", { name: lead.id })).toBeVisible();
  // Tally's retry of the same submission answers that lead and makes no other.
  const retry = await tallyPost(url, body, secret);
  expect(retry.status).toBe(200);
  expect(((await retry.json()) as { lead_id: string }).lead_id).toBe(lead.id);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  // Consent (issue 46, step 4): the text the builder's form shows, recorded with the answer mapped to Consent.
  await admin.getByLabel(/^Record consent/).check();
  await admin.getByLabel("Consent text").fill("Send me the newsletter of Example Ltd.");
  await admin.getByLabel("Purpose").fill("Newsletter");
  await admin.getByRole("button", { name: "Save consent" }).click();
  await expect(admin.getByRole("list", { name: "Consent versions" })).toContainText("Version 1 (current) · Newsletter · optional");
  await admin.getByLabel("Checkboxes", { exact: true }).selectOption({ label: "Consent (the evidence; kept as an extra field too)" });
  await admin.getByRole("button", { name: "Save mapping" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Mapping saved." })).toBeVisible();
  await checkAtBothWidths(admin, "settings: a connection recording consent");
  const example = tallyExample() as { data: Record<string, unknown> };
  const next = JSON.stringify({ ...example, data: { ...example.data, responseId: "consent1", submissionId: "consent1" } });
  expect((await tallyPost(url, next, secret)).status).toBeLessThan(300);
  const evidence = await db().leadConsent.findFirstOrThrow({ where: { teamId: team.id }, include: { version: true } });
  expect([evidence.status, evidence.channel, evidence.version?.text]).toEqual([
    "given",
    "connection",
    "Send me the newsletter of Example Ltd.",
  ]);

  await admin.getByRole("button", { name: "Roll URL" }).click();
  await expect(admin.getByRole("dialog", { name: "Roll the connection's URL" })).toBeVisible();
  await checkPage(admin, "settings: a connection, roll dialog");
  await admin.getByLabel("The old URL stops working").selectOption({ label: "Now" });
  await admin.getByRole("dialog").getByRole("button", { name: "Roll URL" }).click();
  const rolledUrl = await admin
    .getByRole("region", { name: "Connection URL, shown once" })
    .getByRole("textbox", { name: "Connection URL" })
    .inputValue();
  expect(rolledUrl).not.toBe(url);
  expect((await tallyPost(url, body, secret)).status).toBe(404);
  // The lead names the connection it came through, like a key or a web form.
  await admin.goto(`/t/${team.slug}/leads/${lead.id}`);
  // The lead's facts name the connection, and so does its one submission.
  await expect(admin.getByRole("definition").filter({ hasText: `Contact form (${lead.connectionId})` })).toBeVisible();
  await expect(admin.getByRole("region", { name: "Submissions" })).toContainText(`Contact form (${lead.connectionId})`);

  const member = await signInAs(await newUser({ team, role: "member" }));
  await member.goto(`/t/${team.slug}/settings/connections`);
  await expect(member.getByRole("list", { name: "Connections" })).toContainText("Contact form");
  await expect(member.getByRole("button", { name: "Connect" })).toHaveCount(0);
  await member.getByRole("link", { name: "Contact form" }).click();
  await expect(member.getByRole("heading", { name: "Connection Contact form" })).toBeVisible();
  await expect(member.getByRole("button", { name: "Roll URL" })).toHaveCount(0);
  await expect(member.getByRole("button", { name: /^Replay/ })).toHaveCount(0);
  // Every member opens a delivery; one that made its lead keeps no body, and there is nothing to replay or delete.
  await member.getByRole("table", { name: LOG }).getByRole("link").first().click();
  await expect(member.getByText("No body is kept for this delivery: a delivery that made its lead keeps none.")).toBeVisible();
  await expect(member.getByRole("link", { name: lead.id })).toBeVisible();
  await expect(member.getByRole("button", { name: /^(Replay|Delete)/ })).toHaveCount(0);
  // Another team's member, through their own team's address, finds no such delivery.
  const delivery = member.url().split("/deliveries/")[1]!;
  const { team: otherTeam, user: stranger } = await newTeamWithUser("owner");
  const strangerPage = await signInAs(stranger);
  const foreign = await strangerPage.goto(`/t/${otherTeam.slug}/settings/connections/${lead.connectionId}/deliveries/${delivery}`);
  expect(foreign?.status()).toBe(404);
});

test("60 big kept deliveries: the connection's page stays small and pages 50 at a time; a delivery's page shows its body, and the owner deletes it", async ({
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("owner");
  const created = await createConnection({ teamId: team.id, builder: "generic", name: "Big bodies", createdById: null, actor: CLI_ACTOR });
  const post = (body: string) =>
    fetch(`${BASE_URL}${created.path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  // No answer gives a name: each is kept whole as "needs mapping". 60 of 150 KB are 9 MB, within
  // the 10 MiB a connection keeps (lib/connections/kept-deliveries.ts).
  const filler = "lorem ipsum ".repeat(12_800);
  const bodies = Array.from({ length: 60 }, (_, i) => JSON.stringify({ email: `big-${i}@example.com`, notes: `BIG-BODY-${i} ${filler}` }));
  for (let i = 0; i < 59; i += 6) {
    const batch = bodies.slice(i, Math.min(i + 6, 59));
    expect(await Promise.all(batch.map(async (body) => (await post(body)).status))).toEqual(batch.map(() => 202));
  }
  // The newest, alone.
  expect((await post(bodies[59]!)).status).toBe(202);

  const owner = await signInAs(user);
  const path = `/t/${team.slug}/settings/connections/${created.id}`;
  const response = await owner.request.get(path);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const bytes = Buffer.byteLength(html);
  test.info().annotations.push({ type: "connection page", description: `${bytes} bytes of HTML with 60 kept bodies of 150 KB` });
  expect(bytes).toBeLessThan(300 * 1024);
  expect(html).not.toContain("BIG-BODY-");
  expect(html).not.toContain("lorem ipsum");
  // A cursor that is not one is the newest page, never an error.
  for (const query of ["?at=yesterday&older=dlv_1", `?at=2026-02-30T00:00:00.000Z&older=dlv_${"0".repeat(32)}`, "?older=&older="])
    expect((await owner.request.get(`${path}${query}`)).status()).toBe(200);

  await owner.goto(path);
  await expect(owner.getByText(/^60 deliveries kept, \d+(\.\d)? MB of 10 MB$/)).toBeVisible();
  const log = owner.getByRole("table", { name: LOG });
  await expect(log.getByRole("row")).toHaveCount(51);
  await expect(log.getByRole("cell", { name: /^No answer gives the lead's name.*Kept: 15\d KB$/ }).first()).toBeVisible();
  await owner.getByRole("link", { name: "Older deliveries →" }).click();
  await expect(owner).toHaveURL(/\?at=[^&]+&older=dlv_[0-9a-f]{32}#delivery-log$/);
  await expect(log.getByRole("row")).toHaveCount(11);
  await expect(owner.getByRole("link", { name: "Older deliveries →" })).toHaveCount(0);
  await owner.getByRole("link", { name: "← Newest" }).click();
  await expect(log.getByRole("row")).toHaveCount(51);

  await log.getByRole("link").first().click();
  await expect(owner.getByRole("heading", { name: "Delivery to Big bodies" })).toBeVisible();
  await expect(owner.getByRole("region", { name: "Body" })).toContainText("BIG-BODY-59 lorem ipsum");
  await expect(owner.getByText(/^application\/json · 15\d KB kept$/)).toBeVisible();
  await checkPage(owner, "settings: a delivery with a big body");
  const phone = VIEWPORTS.find((viewport) => viewport.name === "phone")!;
  await owner.setViewportSize({ width: phone.width, height: phone.height });
  await checkPage(owner, "settings: a delivery with a big body (phone)");
  await owner.getByRole("button", { name: "Delete this delivery" }).click();
  const dialog = owner.getByRole("dialog", { name: "Delete this delivery?" });
  await expect(dialog).toBeVisible();
  await checkPage(owner, "settings: a delivery, delete dialog (phone)");
  await dialog.getByRole("button", { name: "Delete delivery" }).click();

  await expect(owner).toHaveURL(new RegExp(`${path}$`));
  await expect(owner.getByText(/^59 deliveries kept, /)).toBeVisible();
  expect(await db().connectionDelivery.count({ where: { connectionId: created.id } })).toBe(59);
  const audited = await db().auditEvent.findMany({ where: { teamId: team.id, action: "connection.delivery_deleted" } });
  expect(audited.map((event) => event.targetId)).toEqual([created.id]);
  expect(JSON.stringify(audited)).not.toContain("BIG-BODY");
});

test("connecting Webflow in the UI: the URL first, then Webflow's own secret on the connection's page; refused until then", async ({
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("owner");
  const admin = await signInAs(user);
  await admin.goto(`/t/${team.slug}/settings/connections`);
  await admin.getByLabel("Form builder").selectOption({ label: "Webflow" });
  await admin.getByRole("button", { name: "Connect" }).click();
  const shown = admin.getByRole("region", { name: "Connection URL, shown once" });
  const url = await shown.getByRole("textbox", { name: "Connection URL" }).inputValue();
  // Webflow makes the secret: none is shown here.
  await expect(shown.getByRole("textbox", { name: "Signing secret" })).toHaveCount(0);
  const secret = "webflow-secret-0123456789abcdef";
  const body = JSON.stringify(webflowExample());
  expect(
    (
      await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...webflowHeaders(body, secret, Date.now()) },
        body,
      })
    ).status,
  ).toBe(401);

  await admin.getByRole("link", { name: "Open the connection" }).click();
  await expect(admin.getByText("No secret yet: every delivery is refused until one is set.")).toBeVisible();
  await checkPage(admin, "settings: a Webflow connection without its secret");
  await admin.getByLabel("Signing secret from Webflow").fill(secret);
  await admin.getByRole("button", { name: "Save signing secret" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Signing secret saved." })).toBeVisible();
  await expect(admin.getByText("A secret is set (it is never shown). Saving replaces it.")).toBeVisible();
  await expect(admin.getByLabel("Signing secret from Webflow")).toHaveValue("");
  const created = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...webflowHeaders(body, secret, Date.now()) },
    body,
  });
  expect(created.status).toBe(201);
  await admin.reload();
  await expect(admin.getByRole("cell", { name: "Lead created 201" })).toBeVisible();
});

test("the connections pages on a phone: no axe violation, nothing scrolls sideways", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const created = await createConnection({
    teamId: team.id,
    builder: "tally",
    name: "A rather long connection name for a phone",
    createdById: null,
    actor: CLI_ACTOR,
  });
  const body = JSON.stringify(tallyExample());
  expect((await tallyPost(`${BASE_URL}${created.path}`, body, created.signingSecret!)).status).toBe(202);
  // A spam delivery (a link in the full name): the card shows "Spam (24 h)".
  const example = tallyExample() as { data: { fields: unknown[] } };
  const name = { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: "Best SEO http://seo-offer.example/now" };
  const spam = JSON.stringify({
    ...example,
    data: { ...example.data, responseId: "spam1", submissionId: "spam1", fields: [...example.data.fields, name] },
  });
  expect((await tallyPost(`${BASE_URL}${created.path}`, spam, created.signingSecret!)).status).toBe(201);
  const page = await signInAs(user);
  const phone = VIEWPORTS.find((viewport) => viewport.name === "phone")!;
  await page.setViewportSize({ width: phone.width, height: phone.height });
  await page.goto(`/t/${team.slug}/settings/connections`);
  await expect(page.getByRole("list", { name: "Connections" })).toContainText("A rather long connection name");
  await expect(page.getByRole("link", { name: "1 submission in Leads → Spam" })).toBeVisible();
  await checkPage(page, "settings: connections (phone)");
  await page.goto(`/t/${team.slug}/settings/connections/${created.id}`);
  await expect(page.getByRole("cell", { name: "Needs mapping 202" })).toBeVisible();
  await expect(page.getByRole("switch", { name: "Run the spam checks" })).toBeChecked();
  await checkPage(page, "settings: a connection (phone)");
  await page.getByRole("button", { name: "Delete connection A rather long connection name for a phone" }).click();
  await expect(page.getByRole("dialog", { name: "Delete connection?" })).toBeVisible();
  await checkPage(page, "settings: a connection, delete dialog (phone)");
});

test("connecting Google Forms in the UI: the Apps Script to paste, with the URL in it, passes axe on a laptop and a phone", async ({
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("admin");
  const admin = await signInAs(user);
  await admin.goto(`/t/${team.slug}/settings/connections`);
  await admin.getByLabel("Form builder").selectOption({ label: "Google Forms" });
  await admin.getByRole("button", { name: "Connect" }).click();
  const shown = admin.getByRole("region", { name: "Connection URL, shown once" });
  const url = await shown.getByRole("textbox", { name: "Connection URL" }).inputValue();
  const script = shown.getByRole("region", { name: "Apps Script" });
  // The URL inside the script as a JavaScript string, exactly once.
  await expect(script).toContainText(`${JSON.stringify(url)}`);
  await expect(script).toContainText("function install()");
  await expect(shown.getByRole("button", { name: "Copy the Apps Script" })).toBeVisible();
  await checkPage(admin, "settings: a Google Forms connection just made");
  const phone = VIEWPORTS.find((viewport) => viewport.name === "phone")!;
  await admin.setViewportSize({ width: phone.width, height: phone.height });
  await checkPage(admin, "settings: a Google Forms connection just made (phone)");
});

test("a Generic connection's secret header, set on its page; its lead listed by 'Leads from this connection'", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const created = await createConnection({ teamId: team.id, builder: "generic", name: "Zapier", createdById: null, actor: CLI_ACTOR });
  const url = `${BASE_URL}${created.path}`;
  const post = (body: object, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const admin = await signInAs(user);
  await admin.goto(`/t/${team.slug}/settings/connections/${created.id}`);
  await expect(admin.getByRole("heading", { name: "Secret header (optional)" })).toBeVisible();
  await expect(admin.getByText("No secret: the URL alone is the credential.")).toBeVisible();
  await admin.getByLabel("Secret (at least 16 characters)").fill("too-short");
  await admin.getByRole("button", { name: "Save secret" }).click();
  // The browser's own check (minlength) keeps the form from being sent.
  await expect(admin.getByText("No secret: the URL alone is the credential.")).toBeVisible();
  const secret = "zapier-secret-4d1f8a2c9e";
  await admin.getByLabel("Secret (at least 16 characters)").fill(secret);
  await admin.getByRole("button", { name: "Save secret" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Secret saved." })).toBeVisible();
  await checkPage(admin, "settings: a Generic connection with a secret header");

  expect((await post({ name: "Eve Forger" })).status).toBe(401);
  expect((await post({ name: "Ada Lovelace" }, { "X-Connection-Secret": secret })).status).toBe(201);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  await admin.getByRole("link", { name: "Leads from this connection" }).click();
  await expect(admin).toHaveURL(new RegExp(`/t/${team.slug}/leads\\?connection=${created.id}$`));
  await expect(admin.getByText(/^1 lead matches/)).toBeVisible();
  await expect(admin.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
  await expect(admin.getByLabel("Created by connection")).toHaveValue(created.id);
});
