import { randomBytes } from "node:crypto";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { db } from "../../lib/db/client";
import { saveRule, type RuleInput } from "../../lib/routing/assignment-rules";
import { addMember, createTeam } from "../../lib/teams/team-store";

// The routing rows of `npm run bench` (issue 28): create_lead for a team with five active
// assignment rules against a team with none. Four rules test the lead and do not match it
// (each a different kind of condition, so each is evaluated in full); the fifth, last, is a
// round robin over four members with working hours in four time zones that always hold, so
// every lead takes a turn on the rule's row in its own transaction. Target: ≥ 0.9 × the
// team without rules, same run.

const ZONES = ["Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Sydney"];

/** Sets up the routed team; returns its API key's headers. */
export async function routingBench(): Promise<{ auth: Record<string, string>; teamId: string }> {
  const team = await createTeam({ slug: "bench-routed", name: "Bench with rules", defaultPhoneCountry: "GB" });
  const members: string[] = [];
  for (const [i, timeZone] of ZONES.entries()) {
    const user = await db().user.create({
      data: {
        email: `bench-router-${i}-${randomBytes(4).toString("hex")}@example.com`,
        passwordHash: "x",
        // Every day, all day, in the member's own zone: on duty, but checked on every lead.
        workingHours: { timeZone, days: [1, 2, 3, 4, 5, 6, 7], start: "00:00", end: "24:00" },
      },
    });
    await addMember({ teamId: team.id, userId: user.id, role: "member" });
    members.push(user.id);
  }
  const rule = (name: string, conditions: RuleInput["conditions"], userIds: string[]): RuleInput => ({
    name,
    enabled: true,
    conditions,
    mode: userIds.length > 1 ? "round_robin" : "member",
    userIds,
    fallbackUserId: null,
  });
  const rules: RuleInput[] = [
    rule("Partners", [{ field: "utm_source", op: "one_of", values: ["partner", "referral", "affiliate"] }], [members[0]!]),
    rule("US phones", [{ field: "phone_country", op: "one_of", values: ["+1"] }], [members[1]!]),
    rule("Enterprise", [{ field: "extra:favourite_colour", op: "equals", values: ["blue"] }], [members[2]!]),
    rule("Big companies", [{ field: "organization", op: "contains", values: ["corp", "inc", "gmbh"] }], [members[3]!]),
    rule("Everyone else", [{ field: "utm_source", op: "equals", values: ["google"] }], members),
  ];
  for (const input of rules) {
    const saved = await saveRule({ teamId: team.id, input, actor: CLI_ACTOR });
    if (!saved.ok) throw new Error(`The bench's rule "${input.name}" was refused: ${saved.error}`);
  }
  const key = await createApiKey({ teamId: team.id, description: "npm run bench (routing)" });
  return { auth: { "X-API-Key": key.keyId, "X-API-Secret": key.secret }, teamId: team.id };
}

/** How many of the team's leads each member owns (every lead should have one; a fair rotation gives equal shares ± 1 per row). */
export async function ownersOf(teamId: string): Promise<{ unassigned: number; shares: number[] }> {
  const groups = await db().lead.groupBy({ by: ["ownerId"], where: { teamId }, _count: { _all: true } });
  return {
    unassigned: groups.find((group) => group.ownerId === null)?._count._all ?? 0,
    shares: groups.filter((group) => group.ownerId !== null).map((group) => group._count._all),
  };
}
