import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../../test/support/webhook-receiver";
import { db } from "../../lib/db/client";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-changes";
import { newTeamWithUser, newUser } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Team Settings → API Integration → Webhooks in the browser: an owner adds an endpoint,
// reveals its secret, sends a test event that a local receiver verifies with the
// standardwebhooks package, sees it in the delivery log, resends a failed one, disables
// and deletes the endpoint. A member sees the endpoints, their URLs masked (a secret in a
// URL stays with owners and admins), and none of the controls.

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(() => receiver.close());

/** A secret a receiver put in its URL: owners and admins see it on the endpoint's page, members never. */
const URL_SECRET = "member-must-not-see-this-token";

test("an owner adds an endpoint, sends a test event and sees it verified in the delivery log", async ({ signInAs }) => {
  const { team, user } = await newTeamWithUser("owner");
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.getByRole("navigation", { name: "API Integration" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await dialog.getByLabel("URL").fill(receiver.url);
  await dialog.getByLabel("Description").fill("CRM sync");
  await expect(dialog.getByRole("checkbox", { name: /lead\.created/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole("list", { name: "Webhook endpoints" });
  await expect(list).toContainText("CRM sync");
  await expect(list).toContainText("Enabled");
  // The list masks every URL (scheme, host, the path's first characters); the endpoint's page shows owners the full one.
  await list.getByRole("link", { name: `http://127.0.0.1:${receiver.port}/hook…`, exact: true }).click();
  await expect(page.getByText(receiver.url, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  const secret = page.getByLabel("Signing secret", { exact: true });
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  receiver.secret = await secret.innerText();

  const before = receiver.deliveries.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test event queued" })).toBeVisible();
  const rows = page.getByRole("region", { name: "Delivery log" }).getByRole("row");
  await expect(async () => {
    await page.reload();
    await expect(rows.nth(1)).toContainText("200", { timeout: 1_000 });
  }).toPass();
  await expect(rows.nth(1)).toContainText("webhook.test");
  const received = receiver.deliveries.slice(before);
  expect(received.map((delivery) => [delivery.verified, (delivery.payload as { type: string }).type])).toEqual([[true, "webhook.test"]]);
  await saveScreenshot(page, "webhook-delivery-log");

  // A refused test event fails at once (one attempt) and can be resent.
  receiver.status = 500;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(async () => {
    await page.reload();
    await expect(rows.nth(1)).toContainText("500", { timeout: 1_000 });
    // The attempt is logged a moment before its delivery is marked failed; Resend comes with that.
    await expect(rows.nth(1).getByRole("button", { name: "Resend" })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  receiver.status = 200;
  await rows.nth(1).getByRole("button", { name: "Resend" }).click();
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(4, { timeout: 1_000 });
  }).toPass();
  await expect(rows.nth(1)).toContainText("200");
  await expect(rows.nth(1)).toContainText("attempt 1");

  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Disabled", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
  await page.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await page.getByRole("dialog", { name: "Delete webhook endpoint?" }).getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/settings/webhooks$`));
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  await page.goto(`/t/${team.slug}/settings/audit`);
  for (const action of [
    "Webhook added",
    "Webhook secret revealed",
    "Webhook test sent",
    "Webhook delivery resent",
    "Webhook disabled",
    "Webhook deleted",
  ]) {
    await expect(page.getByRole("rowheader", { name: action, exact: true }).first()).toBeVisible();
  }
});

test("an admin edits an endpoint's URL, description and events, then rotates its secret: both secrets sign during the grace period", async ({
  signInAs,
}) => {
  const { team, user } = await newTeamWithUser("admin");
  const actor = { userId: user.id, ip: null, via: "web" as const };
  const endpoint = await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/old",
    description: "Old sync",
    events: ["lead.created"],
    actor,
  });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/webhooks/${endpoint.id}`);

  await page.getByRole("button", { name: "Edit endpoint" }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook endpoint" });
  await expect(edit.getByLabel("URL")).toHaveValue("https://hooks.example.com/old");
  await expect(edit.getByLabel("Description")).toHaveValue("Old sync");
  await edit.getByRole("checkbox", { name: /lead\.created/ }).uncheck();
  await edit.getByLabel("URL").fill(receiver.url);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toHaveText("Choose at least one event.");
  await edit.getByRole("checkbox", { name: /lead\.created/ }).check();
  await edit.getByLabel("Description").fill("CRM v2");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("heading", { name: "Webhook endpoint CRM v2" })).toBeVisible();
  await expect(page.getByText(receiver.url, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  const shown = page.getByLabel("Signing secret", { exact: true });
  const oldSecret = await shown.innerText();
  await page.getByRole("button", { name: "Rotate signing secret" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate signing secret" });
  await expect(rotate.getByLabel("The old secret stops signing")).toHaveValue("24h");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await expect(rotate).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Signing secret rotated" })).toBeVisible();
  await expect(shown).toHaveText(/^whsec_/);
  const newSecret = await shown.innerText();
  expect(newSecret).not.toBe(oldSecret);
  await expect(page.getByText("The previous signing secret also signs deliveries until")).toBeVisible();

  // A receiver still on the old secret verifies the test event; one already on the new secret does too.
  receiver.secret = oldSecret;
  receiver.status = 200;
  const before = receiver.deliveries.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.deliveries.length).toBe(before + 1);
  const delivery = receiver.deliveries[before]!;
  expect(delivery.verified).toBe(true);
  expect(String(delivery.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(() => new Webhook(newSecret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();

  await page.goto(`/t/${team.slug}/settings/audit`);
  await expect(page.getByRole("row").filter({ hasText: "Webhook changed" })).toContainText("changed: url, description");
  await expect(page.getByRole("row").filter({ hasText: "Webhook secret rotated" })).toContainText("old secret signs until");
});

test("a member sees the endpoints with masked URLs but cannot add, reveal or change them, not even by forging the owner's calls", async ({
  signInAs,
}) => {
  const { team, user: owner } = await newTeamWithUser("owner");
  const member = await newUser({ team, role: "member" });
  const asOwner = await signInAs(owner);
  await asOwner.goto(`/t/${team.slug}/settings/webhooks`);
  await asOwner.getByRole("button", { name: "Add endpoint" }).click();
  await asOwner.getByLabel("URL").fill(`https://hooks.example.com/leads?token=${URL_SECRET}`);
  await asOwner.getByRole("dialog").getByRole("button", { name: "Add endpoint" }).click();
  await expect(asOwner.getByRole("list", { name: "Webhook endpoints" })).toContainText("https://hooks.example.com/lead…");
  await asOwner.getByRole("link", { name: "https://hooks.example.com/lead…", exact: true }).click();
  await expect(asOwner.getByText(`https://hooks.example.com/leads?token=${URL_SECRET}`, { exact: true })).toBeVisible();
  const reveal = await recordAction(asOwner, () => asOwner.getByRole("button", { name: "Reveal signing secret" }).click());
  await expect(asOwner.getByLabel("Signing secret", { exact: true })).toHaveText(/^whsec_/);
  const disable = await recordAction(asOwner, () => asOwner.getByRole("button", { name: "Disable" }).click());
  await asOwner.getByRole("button", { name: "Edit endpoint" }).click();
  const edit = await recordAction(asOwner, () =>
    asOwner.getByRole("dialog", { name: "Edit webhook endpoint" }).getByRole("button", { name: "Save" }).click(),
  );
  await asOwner.getByRole("button", { name: "Rotate signing secret" }).click();
  const rotate = await recordAction(asOwner, () =>
    asOwner.getByRole("dialog", { name: "Rotate signing secret" }).getByRole("button", { name: "Rotate secret" }).click(),
  );
  await expect(asOwner.getByRole("status").filter({ hasText: "Signing secret rotated" })).toBeVisible();
  await expect(asOwner.getByText("Disabled", { exact: true })).toBeVisible();
  await asOwner.getByRole("button", { name: "Enable" }).click();
  await expect(asOwner.getByText("Enabled", { exact: true })).toBeVisible();

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/settings/webhooks`);
  await expect(page.getByRole("list", { name: "Webhook endpoints" })).toContainText("https://hooks.example.com/lead…");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  // Not in the page, nor in the data the page carries for the browser (the RSC payload).
  expect(await page.content()).not.toContain(URL_SECRET);
  await page.getByRole("link", { name: "https://hooks.example.com/lead…", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  await expect(page.getByText("https://hooks.example.com/lead…", { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(URL_SECRET);
  await expect(page.getByRole("button", { name: "Reveal signing secret" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send test event" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit endpoint" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate signing secret" })).toHaveCount(0);

  // The server re-checks the role: the owner's recorded calls, replayed with the member's session.
  const before = await db().webhookEndpoint.findFirstOrThrow({ where: { teamId: team.id } });
  for (const call of [reveal, disable, edit, rotate]) {
    const forged = await replayAction(page, call);
    expect(forged.text).toContain("Your role in this team does not allow this.");
    expect(forged.text).not.toContain("whsec_");
  }
  const endpoint = await db().webhookEndpoint.findFirstOrThrow({ where: { teamId: team.id } });
  expect(endpoint.enabled).toBe(true);
  expect(endpoint.secretCiphertext).toBe(before.secretCiphertext);
});
