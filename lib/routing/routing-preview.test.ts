import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createLead } from "../leads/create-lead";
import { actorOf, makeTeam } from "../leads/lead-ownership.fixtures";
import { parseLeadInput } from "../leads/parse-lead-input";
import { setAvailability } from "../users/availability-store";
import { saveRule, setRoutingFallback } from "./assignment-rules";
import { previewRouting } from "./routing-preview";

// "Test a lead" (routing-preview.ts): the same answer the intake would give, with nothing
// created and no round robin's turn taken.

await useTestDatabase();

const NOW = new Date("2026-11-25T10:00:00Z");

describe("Test a lead", () => {
  test("names the rule and the member whose turn it is, takes no turn, and the next real lead goes to that member", async () => {
    const { team, owner, admin, member } = await makeTeam();
    const google = { field: "utm_source", op: "equals" as const, values: ["google"] };
    const saved = await saveRule({
      teamId: team.id,
      input: {
        name: "Ads",
        enabled: true,
        conditions: [google],
        mode: "round_robin",
        userIds: [admin.id, member.id],
        fallbackUserId: null,
      },
      actor: actorOf(owner),
    });
    assert.ok(saved.ok);
    const preview = (body: unknown) => previewRouting({ team: { id: team.id, defaultPhoneCountry: null }, body, origin: {}, now: NOW });
    const leadsBefore = await db().lead.count({ where: { teamId: team.id } });
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await preview({ name: "Ada", utm_source: "Google" }), {
        ok: true,
        rule: { id: saved.ruleId, name: "Ads" },
        owner: { id: admin.id, email: admin.email, name: admin.name },
        because: "It is this member's turn in the round robin.",
      });
    }
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), leadsBefore, "nothing created");
    const input = parseLeadInput([
      ["name", "Ada"],
      ["utm_source", "google"],
    ]);
    const { leadId } = await createLead({ team: { id: team.id, defaultPhoneCountry: null }, apiKeyId: null, input });
    assert.equal((await db().lead.findUniqueOrThrow({ where: { id: leadId } })).ownerId, admin.id);

    await setAvailability(member.id, { away: true, awayUntil: null, workingHours: null });
    const next = await preview({ name: "Ada", utm_source: "google" });
    assert.ok(next.ok);
    assert.equal(next.owner?.id, admin.id, "the member whose turn it would be is away");
    assert.equal(next.because, "It is this member's turn in the round robin (1 of its members is away or off duty now).");

    assert.deepEqual(await preview({ name: "Ada" }), {
      ok: true,
      rule: null,
      owner: null,
      because: "No rule matches it, and the team has no fallback member.",
    });
    assert.ok((await setRoutingFallback({ teamId: team.id, userId: owner.id, actor: actorOf(owner) })).ok);
    assert.deepEqual(await preview({ name: "Ada" }), {
      ok: true,
      rule: null,
      owner: { id: owner.id, email: owner.email, name: owner.name },
      because: "No rule matches it: the team's fallback member gets it.",
    });
  });

  test("refuses what create_lead would refuse, with its message", async () => {
    const { team } = await makeTeam();
    const preview = (body: unknown) => previewRouting({ team: { id: team.id, defaultPhoneCountry: null }, body, origin: {}, now: NOW });
    assert.deepEqual(await preview(["Ada"]), { ok: false, error: "Write the lead as a JSON object." });
    assert.deepEqual(await preview({ email: "ada@example.com" }), { ok: false, error: "Name is required" });
    assert.deepEqual(await preview({ name: "Ada", email: "not an email" }), { ok: false, error: "Invalid email address: not an email" });
  });
});
