import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { listLeadSources } from "../../lib/teams/lead-sources";
import { findMembership, findTeamBySlug } from "../../lib/teams/team-store";
import { CREATE_LEAD, newUser, uniqueSlug } from "../support/fixtures";

// npm run teams -- create, run as an operator would, against the server's database.
function teams(...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/teams.ts", ...args], { env: process.env, encoding: "utf8" });
}

test("teams create makes a team owned by that user, with the API source, that takes leads at once", async ({ request }) => {
  const owner = await newUser();
  const name = `Operator ${uniqueSlug("team")}`;
  const created = JSON.parse(teams("create", "--name", name, "--owner", owner.email, "--json"));
  expect(created).toEqual({ slug: expect.stringMatching(/^operator-team-[0-9a-f]+$/), name, owner: owner.email });
  const team = (await findTeamBySlug(created.slug))!;
  expect((await findMembership({ userId: owner.id, slug: team.slug }))?.role).toBe("owner");
  expect((await listLeadSources(team.id)).map((s) => s.name)).toEqual(["API"]);
  expect((await listAuditEvents(team.id)).map((e) => [e.action, e.via])).toEqual([["team.created", "cli"]]);

  const key = await createApiKey({ teamId: team.id });
  const response = await request.post(CREATE_LEAD, {
    headers: { "X-API-Key": key.keyId, "X-API-Secret": key.secret },
    data: { name: "First lead" },
  });
  expect(response.status()).toBe(201);
});

test("teams create refuses an unknown owner and a missing name with a usage error", () => {
  expect(() => teams("create", "--name", "Nobody's", "--owner", "nobody-here@example.test")).toThrow(/No user "nobody-here@example.test"/);
  expect(() => teams("create", "--owner", "x@example.test")).toThrow(/--name needs 1 to 100 characters/);
});
