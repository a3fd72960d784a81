import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { startChatFake, type ChatFake } from "../../lib/test-support/chat-fakes";
import { checkAtBothWidths } from "../support/accessibility-check";
import { authHeaders, CREATE_LEAD, newTeamWithUser } from "../support/fixtures";
import { expect, test } from "../support/test";

// Settings → Notifications → Chat in the browser (docs/notifications.md): an admin adds a
// Slack destination pointing at a local Slack fake (it checks each body against Block
// Kit's shape and limits), sees its URL masked, sends a test message, and a lead that then
// arrives is posted with its link; an admin sets a destination's new-lead conditions, and
// only a lead that matches them is posted.

let slack: ChatFake;
let filtered: ChatFake;
test.beforeAll(async () => {
  [slack, filtered] = await Promise.all([startChatFake("slack"), startChatFake("slack")]);
});
test.afterAll(() => Promise.all([slack.close(), filtered.close()]));

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

test("an admin posts only new leads matching a condition: a lead from another API key is not posted, one from the chosen key is", async ({
  signInAs,
  request,
  baseURL,
}) => {
  const { team, user } = await newTeamWithUser("admin");
  const website = await createApiKey({ teamId: team.id, description: "Website" });
  const partner = await createApiKey({ teamId: team.id, description: "Partner portal" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/notifications`);

  await page.getByRole("button", { name: "Add chat destination" }).click();
  const add = page.getByRole("dialog", { name: "Add chat destination" });
  await add.getByLabel("Incoming webhook URL").fill(filtered.url);
  await add.getByLabel("Name").fill("#partners");
  await expect(add.getByRole("checkbox", { name: "A repeat submission of an existing lead" })).toBeChecked();
  await expect(add.getByRole("radio", { name: "All new leads" })).toBeChecked();
  await add.getByRole("button", { name: "Add destination" }).click();
  await expect(add).toBeHidden();
  const list = page.getByRole("list", { name: "Chat destinations" });
  await expect(list).toContainText("All new leads");
  await expect(list).toContainText("repeat submissions");

  await page.getByRole("button", { name: "Edit #partners" }).click();
  const edit = page.getByRole("dialog", { name: "Edit chat destination" });
  await edit.getByRole("radio", { name: "Only new leads matching…" }).check();
  const keys = edit.getByRole("group", { name: "API key" });
  await expect(keys.getByRole("checkbox")).toHaveCount(2);
  await expect(edit.getByRole("group", { name: "Channel group" }).getByRole("checkbox", { name: "Paid Search" })).toBeVisible();
  await expect(edit.getByRole("group", { name: "Owner" }).getByRole("checkbox")).toHaveCount(1);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toContainText("Tick at least one condition");
  await keys.getByRole("checkbox", { name: /^Partner portal/ }).check();
  await checkAtBothWidths(page, "the chat destination's conditions");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(list).toContainText(`Only new leads matching: API key: Partner portal (${partner.keyId})`);
  await expect(page.getByText(website.secret)).toHaveCount(0);
  await expect(page.getByText(partner.secret)).toHaveCount(0);
  await checkAtBothWidths(page, "Notifications with a destination's conditions");

  const post = async (key: typeof website, name: string) => {
    const response = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name, organization: "Conditions" } });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { lead_id: string }).lead_id;
  };
  await post(website, "Not Matching");
  const matching = await post(partner, "Matching Partner");
  await expect.poll(() => filtered.received.length).toBe(1);
  const body = JSON.stringify(filtered.received[0]!.body);
  expect(filtered.received[0]!.problems).toEqual([]);
  expect(body).toContain("New lead: Matching Partner");
  expect(body).toContain(`${baseURL}/t/${team.slug}/leads/${matching}`);
  // The jobs runner posts in order: had the first lead been queued, it would have been posted first.
  expect(filtered.received.some((got) => JSON.stringify(got.body).includes("Not Matching"))).toBe(false);
});
