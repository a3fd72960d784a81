import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { createApiKey, deleteApiKey, updateApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { createTeam, deleteTeam } from "../../lib/teams/team-store";
import { createLeadVia, type AppInstance } from "./app-instances";

// Issue 47's key cache across instances, on whichever database two instances share
// (e2e/sqlite and e2e/postgres multi-instance tests): a key both instances have just used, so
// each holds it in its per-process cache (lib/api-keys/key-cache.ts), stops working through a
// change made elsewhere (this test process, through lib/: the store both instances share),
// and the very next request on each instance is refused. Each case runs twice, the first
// request after the change going to the other instance each time. The instances run on the
// test clock `clockFile` (LEAD_INTAKE_TEST_CLOCK_FILE), absent but for the expiry-by-time case.

export type Revocation = "a deleted key" | "a deleted team" | "an expiry set to now" | "an expiry passed with no write";

export const REVOCATIONS: Revocation[] = ["a deleted key", "a deleted team", "an expiry set to now", "an expiry passed with no write"];

export const revocationTitle = (revocation: Revocation) =>
  `key cache: ${revocation}, with the key cached by both instances, is refused by each on its very next request`;

const INVALID = { success: false, error: "Invalid API key", message: "Authentication failed" };
const TEAM_GONE = { success: false, error: "Team ID required", message: "Authentication failed" };

export async function revokedOnBothInstances(a: AppInstance, b: AppInstance, revocation: Revocation, clockFile: string): Promise<void> {
  for (const round of [0, 1]) {
    const team = await createTeam({ slug: `revoke-${randomBytes(4).toString("hex")}`, name: "revoke" });
    const hourAhead = new Date(Date.now() + 3_600_000);
    const key = await createApiKey({ teamId: team.id, expiresAt: revocation === "an expiry passed with no write" ? hourAhead : null });
    for (const instance of [a, b, a, b]) {
      const warm = await createLeadVia(instance, key, { name: "Before" });
      assert.equal(warm.status, 201, `instance ${instance.name} before: ${JSON.stringify(warm.body)}\n${instance.output()}`);
    }

    let expected = INVALID;
    if (revocation === "a deleted key") assert.equal(await deleteApiKey({ keyId: key.keyId, teamId: team.id }), true);
    if (revocation === "a deleted team") {
      await deleteTeam(team.id);
      expected = TEAM_GONE;
    }
    if (revocation === "an expiry set to now") {
      assert.equal(await updateApiKey({ keyId: key.keyId, teamId: team.id, expiresAt: new Date() }), true);
    }
    if (revocation === "an expiry passed with no write") writeFileSync(clockFile, new Date(hourAhead.getTime() + 60_000).toISOString());
    try {
      for (const instance of round ? [a, b] : [b, a]) {
        const refused = await createLeadVia(instance, key, { name: "After" });
        assert.equal(refused.status, 401, `instance ${instance.name}, the first request after the change`);
        assert.deepEqual(refused.body, expected);
      }
    } finally {
      rmSync(clockFile, { force: true });
    }
    if (revocation !== "a deleted team") {
      assert.equal(await db().lead.count({ where: { teamId: team.id, firstName: "After" } }), 0);
    }
  }
}
