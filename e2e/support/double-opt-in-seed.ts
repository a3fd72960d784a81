// Run as a script against an own server's database (DATABASE_URL, after its start.ts migrated
// and seeded it): gives the demo team a web form without a challenge that asks for consent
// (double opt-in is turned on by the test, in the form's settings); prints its team's slug and name and the form's id as JSON. The
// Playwright worker's own lib modules are bound to the shared server's database, so the
// double opt-in journey (e2e/ui/double-opt-in.spec.ts) seeds its server through this.
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { setFormConsent } from "../../lib/consent/consent-changes";
import { db } from "../../lib/db/client";
import { DEMO_TEAM_SLUG } from "../../lib/setup/seed";
import { createWebForm } from "../../lib/web-forms/web-form-changes";

const [site, text] = process.argv.slice(2);
if (!site || !text) throw new Error("usage: double-opt-in-seed.ts <site origin> <consent text>");

const team = await db().team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
const formId = await createWebForm({
  teamId: team.id,
  settings: { name: "Newsletter", allowedOrigins: [site], sourceId: null, successUrl: null, challenge: false },
  createdById: null,
  actor: CLI_ACTOR,
});
const settings = { text, purpose: "Newsletter", policyUrl: null, required: true };
if (!(await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn: false, actor: CLI_ACTOR })))
  throw new Error("consent refused");
console.log(JSON.stringify({ slug: team.slug, teamName: team.name, formId }));
await db().$disconnect();
