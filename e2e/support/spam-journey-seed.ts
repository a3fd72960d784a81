// Run as a script against an own server's database (DATABASE_URL, after its start.ts
// migrated and seeded it): gives the demo team a member, a web form without a challenge
// and a rule that assigns every lead to that member; prints them as JSON. The Playwright
// worker's own lib modules are bound to the shared server's database, so the spam journey
// (e2e/ui/spam-quarantine.spec.ts) seeds its server through this.
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { db } from "../../lib/db/client";
import { saveRule } from "../../lib/routing/assignment-rules";
import { DEMO_TEAM_SLUG } from "../../lib/setup/seed";
import { addMember } from "../../lib/teams/team-store";
import { createUser } from "../../lib/users/user-store";
import { createWebForm } from "../../lib/web-forms/web-form-changes";

const [site, email, password] = process.argv.slice(2);
if (!site || !email || !password) throw new Error("usage: spam-journey-seed.ts <site origin> <member email> <member password>");

const team = await db().team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
const member = await createUser({ email, password, name: "Mia Member" });
await addMember({ teamId: team.id, userId: member.id, role: "member" });
const formId = await createWebForm({
  teamId: team.id,
  settings: { name: "Contact", allowedOrigins: [site], sourceId: null, successUrl: null, challenge: false },
  createdById: null,
  actor: CLI_ACTOR,
});
const rule = await saveRule({
  teamId: team.id,
  actor: CLI_ACTOR,
  input: { name: "Everything to Mia", enabled: true, conditions: [], mode: "member", userIds: [member.id], fallbackUserId: null },
});
if (!rule.ok) throw new Error(`The rule was refused: ${JSON.stringify(rule)}`);
console.log(JSON.stringify({ slug: team.slug, formId, memberId: member.id }));
await db().$disconnect();
