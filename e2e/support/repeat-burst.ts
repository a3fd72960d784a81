import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { createTeam } from "../../lib/teams/team-store";
import { createLeadVia, type AppInstance } from "./app-instances";

// Issue 41's burst, on whichever database two instances share (e2e/postgres and e2e/sqlite
// multi-instance tests): twenty submissions of one new person to a key set to "add", sent to
// both instances at once, make one lead (one 201, nineteen 200 naming it) and twenty
// submissions, each one's extra field filled onto the lead.

export const BURST_TITLE =
  'twenty submissions of one new person to an "add" key, over both instances at once: one lead (one 201, nineteen 200), twenty submissions';

export async function burstOfOnePerson(a: AppInstance, b: AppInstance): Promise<void> {
  const team = await createTeam({ slug: `repeats-${randomBytes(4).toString("hex")}`, name: "repeats" });
  const key = await createApiKey({ teamId: team.id, repeats: "add" });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      createLeadVia(i % 2 ? b : a, key, {
        name: "Burst Person",
        email: "Burst@Example.com",
        phone: "+447911123456",
        [`answer_${i}`]: `${i}`,
      }),
    ),
  );
  assert.deepEqual(
    results.filter((r) => r.status !== 200 && r.status !== 201).slice(0, 3),
    [],
    `instance logs:\n${a.output()}\n${b.output()}`,
  );
  assert.equal(results.filter((r) => r.status === 201).length, 1, "one submission made the lead");
  assert.ok(results.filter((r) => r.status === 200).every((r) => r.body!.message === "Lead updated successfully"));
  const leads = await db().lead.findMany({ where: { teamId: team.id }, select: { id: true, extraFields: true } });
  assert.equal(leads.length, 1, "one lead");
  assert.ok(
    results.every((r) => r.body!.lead_id === leads[0]!.id),
    "every answer names it",
  );
  assert.equal(await db().leadSubmission.count({ where: { leadId: leads[0]!.id } }), 20, "twenty submissions");
  assert.equal(Object.keys(leads[0]!.extraFields as object).length, 20, "each one's extra field on the lead");
}
