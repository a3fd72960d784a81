import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { listApiKeys } from "../../lib/api-keys/api-key-list";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { CREATE_LEAD, newTeam } from "../support/fixtures";

// The operator CLI, run as an operator would, against the server's database.
function keys(...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/keys.ts", ...args], {
    env: process.env,
    encoding: "utf8",
  });
}

test("a key made with the CLI creates leads, is born copied; list never prints the secret; delete revokes it", async ({ request }) => {
  const team = await newTeam();
  const created = JSON.parse(keys("create", "--team", team.slug, "--description", "CLI key", "--json"));
  expect(created.key_id).toMatch(/^[0-9a-f]{20}$/);
  expect(created.secret).toMatch(/^team_[0-9A-Za-z]{40}$/);

  const res = await request.post(CREATE_LEAD, {
    headers: { "X-API-Key": created.key_id, "X-API-Secret": created.secret },
    form: { name: "From CLI" },
  });
  expect(res.status()).toBe(201);

  const listed = keys("list", "--team", team.slug, "--json");
  expect(listed).not.toContain(created.secret);
  expect(JSON.parse(listed)).toEqual([
    expect.objectContaining({ key_id: created.key_id, description: "CLI key", copied: true, last_used: expect.any(String) }),
  ]);
  // Printing the secret was its one copy: nothing recoverable is kept, and the audit trail says so.
  const [listedKey] = await listApiKeys(team.id);
  expect(listedKey!.secretDisplay).not.toContain(created.secret);
  expect((await listAuditEvents(team.id)).map((e) => [e.action, e.via, e.targetId]).sort()).toEqual([
    ["api_key.generated", "cli", created.key_id],
    ["api_key.secret_shown", "cli", created.key_id],
  ]);

  expect(JSON.parse(keys("delete", created.key_id, "--json"))).toEqual({ deleted: created.key_id });
  const after = await request.post(CREATE_LEAD, {
    headers: { "X-API-Key": created.key_id, "X-API-Secret": created.secret },
    form: { name: "After delete" },
  });
  expect((await after.json()).error).toBe("Invalid API key");
});

test("the CLI refuses an unknown team with a usage error", () => {
  expect(() => keys("create", "--team", "no-such-team-here")).toThrow(/No team with slug "no-such-team-here"/);
});
