import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { startChatFake, type ChatFake } from "../../lib/test-support/chat-fakes";
import { authHeaders, CREATE_LEAD, newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Settings → Notifications → Chat in the browser (docs/notifications.md): an admin adds a
// Slack destination pointing at a local Slack fake (it checks each body against Block
// Kit's shape and limits), sees its URL masked, sends a test message, and a lead that then
// arrives is posted with its link.

let slack: ChatFake;
test.beforeAll(async () => {
  slack = await startChatFake("slack");
});
test.afterAll(() => slack.close());

test("an admin adds a Slack destination, sends a test message, and a new lead is posted with its link", async ({
  signInAs,
  request,
  baseURL,
}) => {
  const { team, user } = await newTeamWithUser("admin");
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings`);
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByRole("heading", { name: "Chat" })).toBeVisible();

  await page.getByRole("button", { name: "Add chat destination" }).click();
  const dialog = page.getByRole("dialog", { name: "Add chat destination" });
  await dialog.getByLabel("Incoming webhook URL").fill("https://example.com/not-a-chat");
  await dialog.getByLabel("Name").fill("#sales");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog.getByRole("alert")).toContainText("hooks.slack.com/services");
  await dialog.getByLabel("Incoming webhook URL").fill(slack.url);
  await expect(dialog.getByRole("checkbox", { name: "New leads" })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: "Email" })).not.toBeChecked();
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole("list", { name: "Chat destinations" });
  await expect(list).toContainText("#sales");
  await expect(list).toContainText("Slack");
  await expect(list).toContainText(new URL(slack.url).host);
  await expect(page.getByText(slack.secret)).toHaveCount(0);

  await page.getByRole("button", { name: "Send a test message to #sales" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test message queued" })).toBeVisible();
  await expect.poll(() => slack.received.length).toBe(1);
  expect(slack.received[0]!.problems).toEqual([]);
  expect(JSON.stringify(slack.received[0]!.body)).toContain("Test message");

  const key = await createApiKey({ teamId: team.id, description: "Website" });
  const response = await request.post(CREATE_LEAD, {
    headers: authHeaders(key),
    data: { name: "Grace <!channel> Hopper", organization: "US Navy" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { lead_id: leadId } = (await response.json()) as { lead_id: string };
  await expect.poll(() => slack.received.length).toBe(2);
  const posted = slack.received[1]!;
  expect(posted.problems).toEqual([]);
  const body = JSON.stringify(posted.body);
  expect(body).toContain(`${baseURL}/t/${team.slug}/leads/${leadId}`);
  expect(body).toContain("New lead: Grace &lt;!channel&gt; Hopper");

  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("region", { name: "Delivery log of #sales" }).getByRole("row")).toHaveCount(3, { timeout: 1_000 });
  }).toPass();
  await expect(page.getByRole("region", { name: "Delivery log of #sales" })).toContainText("lead.created");
});

test("a member sets their Slack member ID on their account page; an ID of the wrong shape is refused", async ({ signInAs }) => {
  const { user } = await newTeamWithUser("member");
  const page = await signInAs(user);
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Chat mentions" });
  await section.getByLabel("Slack member ID").fill("<!channel>");
  await section.getByRole("button", { name: "Save chat IDs" }).click();
  await expect(section.getByRole("alert")).toContainText("looks like U012AB3CD");
  await section.getByLabel("Slack member ID").fill("U012AB3CD");
  await section.getByRole("button", { name: "Save chat IDs" }).click();
  await expect(section.getByRole("status")).toContainText("Chat IDs saved.");
  await page.reload();
  await expect(page.getByRole("region", { name: "Chat mentions" }).getByLabel("Slack member ID")).toHaveValue("U012AB3CD");
});
