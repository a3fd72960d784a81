import { createHmac } from "node:crypto";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { createConnection } from "../../lib/connections/connection-changes";
import { tallyExample } from "../../lib/connections/fixtures/tally-example";
import { webflowExample, webflowHeaders } from "../../lib/connections/fixtures/webflow-example";
import { db } from "../../lib/db/client";
import { checkPage, VIEWPORTS } from "../support/accessibility-check";
import { BASE_URL, newTeamWithUser, newUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Issue 30 in Chromium: an admin connects Tally in Team Settings → API Integration →
// Connections, reads the URL and the signing secret shown once, Tally posts its documented
// example (no name question) signed with that secret, the delivery waits in the log as
// "needs mapping", the admin maps the "Text" question to the full name and replays it, and
// the lead is made; a member sees the connection without its controls. Both pages pass axe
// at 1280 and 390 px.

const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("base64");
const tallyPost = (url: string, body: string, secret: string) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "Tally-Signature": sign(body, secret) }, body });

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
  await expect(admin.getByText(`Contact form (${lead.connectionId})`)).toBeVisible();

  const member = await signInAs(await newUser({ team, role: "member" }));
  await member.goto(`/t/${team.slug}/settings/connections`);
  await expect(member.getByRole("list", { name: "Connections" })).toContainText("Contact form");
  await expect(member.getByRole("button", { name: "Connect" })).toHaveCount(0);
  await member.getByRole("link", { name: "Contact form" }).click();
  await expect(member.getByRole("heading", { name: "Connection Contact form" })).toBeVisible();
  await expect(member.getByRole("button", { name: "Roll URL" })).toHaveCount(0);
  await expect(member.getByRole("button", { name: /^Replay/ })).toHaveCount(0);
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
  const page = await signInAs(user);
  const phone = VIEWPORTS.find((viewport) => viewport.name === "phone")!;
  await page.setViewportSize({ width: phone.width, height: phone.height });
  await page.goto(`/t/${team.slug}/settings/connections`);
  await expect(page.getByRole("list", { name: "Connections" })).toContainText("A rather long connection name");
  await checkPage(page, "settings: connections (phone)");
  await page.goto(`/t/${team.slug}/settings/connections/${created.id}`);
  await expect(page.getByRole("cell", { name: "Needs mapping 202" })).toBeVisible();
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
