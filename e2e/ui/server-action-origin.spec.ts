import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { FOREIGN_REQUEST_MESSAGE } from "../../lib/http/same-origin";
import { authHeaders, CREATE_LEAD, newTeamWithUser } from "../support/fixtures";
import { recordAction, replayAction } from "../support/server-actions";
import { expect, test } from "../support/test";

const keyRows = (page: import("@playwright/test").Page) => page.getByRole("list", { name: "API keys" }).getByRole("listitem");

// CSRF (docs/security.md "Hardening"): an admin's own session cookies, but a request that did not
// come from this site's pages. Next refuses a foreign Origin itself; a missing Origin it
// lets through, and lib/http/same-origin.ts (in withTeamRole) refuses that.
test("key-management actions posted with a foreign or no Origin are refused and change nothing", async ({ signInAs, request }) => {
  const { team, user: admin } = await newTeamWithUser("admin");
  const kept = await createApiKey({ teamId: team.id, description: "Must survive" });

  const page = await signInAs(admin);
  await page.goto(`/t/${team.slug}/settings/api-keys`);
  await page.getByRole("button", { name: "Generate Key" }).click();
  await page.getByLabel("Description (optional)").fill("Recorded key");
  const generate = await recordAction(page, () => page.getByRole("button", { name: "Generate", exact: true }).click());
  const recorded = (await listApiKeys(team.id)).find((k) => k.description === "Recorded key")!;
  await keyRows(page)
    .filter({ hasText: "Recorded key" })
    .getByRole("button", { name: `Delete API key ${recorded.keyId}` })
    .click();
  const remove = await recordAction(page, () => page.getByRole("button", { name: "Delete key" }).click());
  await expect(keyRows(page).filter({ hasText: "Recorded key" })).toHaveCount(0);
  expect(generate.headers.origin).toBe(new URL(generate.url).origin); // the browser did send it

  const keysBefore = (await listApiKeys(team.id)).map((k) => k.keyId);
  const eventsBefore = (await listAuditEvents(team.id)).length;
  const forgedDelete = remove.body.replace(recorded.keyId, kept.keyId);

  for (const [label, origin] of [
    ["a foreign Origin", "https://attacker.example"],
    ["no Origin", null],
  ] as const) {
    await test.step(`${label}: generate and delete are refused`, async () => {
      for (const [action, body] of [
        [generate, generate.body],
        [remove, forgedDelete],
      ] as const) {
        const response = await replayAction(page, action, body, { origin });
        if (origin === null) expect(response.text).toContain(FOREIGN_REQUEST_MESSAGE);
        else expect(response.status).toBeGreaterThanOrEqual(400); // Next's own check, before ours
        expect(response.text).not.toContain('"ok":true');
      }
      expect((await listApiKeys(team.id)).map((k) => k.keyId)).toEqual(keysBefore);
      expect(await listAuditEvents(team.id)).toHaveLength(eventsBefore);
      const stillValid = await request.post(CREATE_LEAD, { headers: authHeaders(kept), data: { name: "Still Valid" } });
      expect(stillValid.status()).toBe(201);
    });
  }

  await test.step("the same forged delete from this site's Origin does work (the refusals were the Origin's)", async () => {
    const response = await replayAction(page, remove, forgedDelete);
    expect(response.text).toContain('"ok":true');
    expect((await listApiKeys(team.id)).map((k) => k.keyId)).not.toContain(kept.keyId);
  });
});
