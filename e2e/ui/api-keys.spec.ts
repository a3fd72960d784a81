import { execFileSync } from "node:child_process";
import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { maskSecret, secretPrefix } from "../../lib/api-keys/secret";
import { authHeaders, CREATE_LEAD, newTeamWithUser, newUser, readClipboard } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

const keyRows = (page: import("@playwright/test").Page) => page.getByRole("list", { name: "API keys" }).getByRole("listitem");

test("an admin generates a key, copies its secret once, and a lead sent with it shows in the list", async ({ signInAs, request }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/api-keys`);

  await page.getByRole("button", { name: "Generate Key" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate API key" });
  await dialog.getByLabel("Description (optional)").fill("Website form");
  await dialog.getByRole("button", { name: "Generate" }).click();
  await expect(dialog).toBeHidden();

  const row = keyRows(page).filter({ hasText: "Website form" });
  await expect(row).toBeVisible();
  const [key] = await listApiKeys(team.id);
  const secret = key!.secretDisplay;
  expect(secret).toMatch(/^team_[0-9A-Za-z]{40}$/);
  await expect(row.getByText(secret, { exact: true })).toBeVisible();
  await expect(row.getByText(key!.keyId, { exact: true })).toBeVisible();
  await expect(row.getByText("Not Copied", { exact: true })).toBeVisible();
  await saveScreenshot(page, "api-keys-before-copy");

  await row.getByRole("button", { name: /^Copy secret of key/ }).click();
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  const copied = await readClipboard(page);
  expect(copied).toBe(secret);

  const masked = maskSecret(secretPrefix(secret));
  for (const when of ["after the copy", "after a reload"]) {
    if (when === "after a reload") await page.reload();
    await test.step(when, async () => {
      await expect(row.getByText(masked, { exact: true })).toBeVisible();
      await expect(row.getByText(secret, { exact: true })).toHaveCount(0);
      await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
      await expect(row.getByText("Not Copied", { exact: true })).toHaveCount(0);
      // The badge and the disabled button both read "Copied".
      await expect(row.getByText("Copied", { exact: true })).toHaveCount(2);
    });
  }
  await saveScreenshot(page, "api-keys-after-copy");

  await test.step("a lead posted with the copied secret appears in the list", async () => {
    const response = await request.post(CREATE_LEAD, {
      headers: { "X-API-Key": key!.keyId, "X-API-Secret": copied },
      data: { name: "Grace Hopper", email: "grace@navy.example", organization: "US Navy", favourite_language: "COBOL" },
    });
    expect(response.status()).toBe(201);
    const { lead_id: leadId } = await response.json();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
    const leadRow = page.getByRole("row").filter({ hasText: leadId });
    await expect(leadRow.getByRole("rowheader")).toHaveText("Grace Hopper");
    await expect(leadRow).toContainText("US Navy");
    await expect(leadRow).toContainText("grace@navy.example");
    await leadRow.getByRole("link", { name: "Grace Hopper" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Grace Hopper" })).toBeVisible();
    const extra = page.getByRole("region", { name: "Extra Fields" });
    await expect(extra.getByRole("term")).toHaveText(["favourite_language"]);
    await expect(extra.getByRole("definition")).toHaveText(["COBOL"]);
    await expect(page.getByRole("region", { name: "Source and attribution" })).toContainText(`${key!.keyId} (Website form)`);
  });
});

test("a member sees the keys and copies a secret once, but can neither generate, delete nor change a repeat setting or the spam checks, even by a forged call", async ({
  signInAs,
  request,
}) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const member = await newUser({ team, role: "member" });
  const shared = await createApiKey({ teamId: team.id, description: "Shared key" });

  // The admin's real calls, recorded so the member can forge them.
  const adminPage = await signInAs(admin);
  await adminPage.goto(`/t/${team.slug}/settings/api-keys`);
  await adminPage.getByRole("button", { name: "Generate Key" }).click();
  await adminPage.getByLabel("Description (optional)").fill("Admin key");
  const generate = await recordAction(adminPage, () => adminPage.getByRole("button", { name: "Generate", exact: true }).click());
  const adminRow = keyRows(adminPage).filter({ hasText: "Admin key" });
  const adminKeyId = (await listApiKeys(team.id)).find((k) => k.description === "Admin key")!.keyId;
  await adminRow.getByRole("button", { name: `Delete API key ${adminKeyId}` }).click();
  const remove = await recordAction(adminPage, () => adminPage.getByRole("button", { name: "Delete key" }).click());
  await expect(adminRow).toHaveCount(0);
  expect(remove.body).toContain(adminKeyId);

  // Issue 41: the admin sets what a repeat submission with the shared key does, on its page.
  await adminPage.goto(`/t/${team.slug}/settings/api-keys/${shared.keyId}`);
  const repeats = adminPage.getByRole("group", { name: "When this person already has a lead" });
  await expect(repeats.getByRole("radio", { name: "Create a new lead" })).toBeChecked();
  await expect(repeats).toContainText("from the last 365 days");
  await repeats.getByRole("radio", { name: "Add to their lead" }).check();
  const setRepeats = await recordAction(adminPage, () => adminPage.getByRole("button", { name: "Save", exact: true }).click());
  await expect(adminPage.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await adminPage.reload();
  await expect(repeats.getByRole("radio", { name: "Add to their lead" })).toBeChecked();
  // Issue 42: a key's spam checks start off; the admin turns them on with the key's switch, which saves when flipped.
  const spamChecks = adminPage.getByRole("switch", { name: "Run the spam checks" });
  await expect(spamChecks).not.toBeChecked();
  const setSpamChecks = await recordAction(adminPage, () => spamChecks.check());
  await expect(adminPage.getByRole("status").filter({ hasText: "Saved: the spam checks run." })).toBeVisible();
  await adminPage.reload();
  await expect(spamChecks).toBeChecked();

  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  const row = keyRows(page).filter({ hasText: "Shared key" });
  await expect(row.getByText(shared.secret, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Generate Key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete API key/ })).toHaveCount(0);

  await row.getByRole("button", { name: /^Copy secret of key/ }).click();
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  expect(await readClipboard(page)).toBe(shared.secret);
  await expect(row.getByText(maskSecret(secretPrefix(shared.secret)), { exact: true })).toBeVisible();

  await test.step("forged generate and delete calls are refused", async () => {
    const forgedGenerate = await replayAction(page, generate);
    expect(forgedGenerate.text).toContain("Your role in this team does not allow this.");
    const forgedDelete = await replayAction(page, remove, remove.body.replace(adminKeyId, shared.keyId));
    expect(forgedDelete.text).toContain("Your role in this team does not allow this.");
    const forgedRepeats = await replayAction(page, setRepeats, setRepeats.body.replace('"add"', '"new"'));
    expect(forgedRepeats.text).toContain("Your role in this team does not allow this.");
    expect((await listApiKeys(team.id)).map((k) => k.repeats)).toEqual(["add"]);
    const forgedSpamChecks = await replayAction(page, setSpamChecks, setSpamChecks.body.replace('"on"', '"off"'));
    expect(forgedSpamChecks.text).toContain("Your role in this team does not allow this.");
    expect((await listApiKeys(team.id)).map((k) => k.spamChecks)).toEqual([true]);

    const keys = await listApiKeys(team.id);
    expect(keys.map((k) => k.keyId)).toEqual([shared.keyId]);
    const stillValid = await request.post(CREATE_LEAD, { headers: authHeaders(shared), data: { name: "Still Works" } });
    expect(stillValid.status()).toBe(201);
  });
});

test("after an admin deletes a key, the endpoint answers Invalid API key at once, and the key's status message goes with it", async ({
  signInAs,
  request,
}) => {
  const { team, user: admin } = await newTeamWithUser("owner");
  const key = await createApiKey({ teamId: team.id, description: "Soon deleted" });
  const before = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "Before Delete" } });
  expect(before.status()).toBe(201);

  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  const row = keyRows(page).filter({ hasText: "Soon deleted" });
  const copied = page.getByRole("status").filter({ hasText: "Secret copied to the clipboard" });
  await row.getByRole("button", { name: /^Copy secret of key / }).click();
  await expect(copied).toBeVisible();
  await row.getByRole("button", { name: `Delete API key ${key.keyId}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete API key?" });
  await expect(dialog).toContainText(key.keyId);
  await dialog.getByRole("button", { name: "Delete key" }).click();
  await expect(row).toHaveCount(0);
  // No message about the deleted key lingers for screen readers (nor on screen).
  await expect(copied).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: key.keyId })).toHaveCount(0);
  await expect(page.getByText(key.keyId)).toHaveCount(0);

  const after = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "After Delete" } });
  expect(after.status()).toBe(401);
  expect(await after.json()).toEqual({ success: false, error: "Invalid API key", message: "Authentication failed" });
});

test("two members copying the same secret at the same moment: only one receives it", async ({ signInAs }) => {
  const { team, user: first } = await newTeamWithUser("member");
  const second = await newUser({ team, role: "member" });
  const warmUp = await createApiKey({ teamId: team.id, description: "Warm-up key" });
  const contested = await createApiKey({ teamId: team.id, description: "Contested key" });

  // The real copy call, recorded on another key, then aimed at the contested one.
  const firstPage = await signInAs(first);
  await firstPage.goto(`/t/${team.slug}/settings/api-keys`);
  const warmUpRow = keyRows(firstPage).filter({ hasText: "Warm-up key" });
  const copy = await recordAction(firstPage, () => warmUpRow.getByRole("button", { name: /^Copy secret of key/ }).click());
  expect(copy.body).toContain(warmUp.keyId);
  const body = copy.body.replace(warmUp.keyId, contested.keyId);

  const secondPage = await signInAs(second);
  const answers = await Promise.all([firstPage, secondPage, firstPage, secondPage].map((page) => replayAction(page, copy, body)));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  expect(answers.filter((answer) => answer.text.includes(contested.secret))).toHaveLength(1);
  expect(answers.filter((answer) => answer.text.includes("This secret has already been copied"))).toHaveLength(3);

  await secondPage.goto(`/t/${team.slug}/settings/api-keys`);
  const row = keyRows(secondPage).filter({ hasText: "Contested key" });
  await expect(row.getByRole("button", { name: "Copied" })).toBeDisabled();
  await expect(row.getByText(contested.secret, { exact: true })).toHaveCount(0);
});

test("the endpoint panel's examples name this deployment and key, never the secret, and the Node.js one really creates a lead", async ({
  signInAs,
  baseURL,
}) => {
  const { team, user } = await newTeamWithUser("member");
  const key = await createApiKey({ teamId: team.id, description: "Snippet key" });
  const page = await signInAs(user);
  await page.goto(`/t/${team.slug}/settings/api-keys`);

  const panel = page.getByRole("complementary", { name: "How to call this endpoint" });
  await expect(panel.getByRole("note")).toContainText("Never put it in client-side code");
  const tabs = panel.getByRole("tab");
  await expect(tabs).toHaveText(["cURL", "Node.js (server)", "Python", "PHP"]);
  const code = panel.getByRole("tabpanel");
  const endpoint = `${baseURL}${CREATE_LEAD}`;
  for (const label of ["cURL", "Python", "PHP", "Node.js (server)"]) {
    await tabs.filter({ hasText: label }).click();
    await expect(tabs.filter({ hasText: label })).toHaveAttribute("aria-selected", "true");
    await expect(code).toContainText(endpoint);
    await expect(code).toContainText(key.keyId);
    await expect(code).toContainText("LEAD_INTAKE_API_SECRET");
    await expect(code).not.toContainText(key.secret);
  }

  const nodeExample = await code.locator("code").innerText();
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", `${nodeExample}\nconsole.log(JSON.stringify(result));`], {
    env: { ...process.env, LEAD_INTAKE_API_SECRET: key.secret },
    encoding: "utf8",
  });
  expect(JSON.parse(output)).toMatchObject({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/) });
});
