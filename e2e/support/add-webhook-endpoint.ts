// Adds a webhook endpoint to a team of the database named by DATABASE_URL (and DATA_DIR's
// encryption key), for tests that run a server of their own; prints {"id", "secret"}.
// Usage: tsx e2e/support/add-webhook-endpoint.ts <team-slug> <url>
import { db } from "../../lib/db/client";
import { findTeamBySlug } from "../../lib/teams/team-store";
import { createEndpoint, revealSigningSecret } from "../../lib/webhooks/webhook-endpoint-changes";

const [slug, url] = process.argv.slice(2);
const team = slug ? await findTeamBySlug(slug) : null;
if (!team || !url) throw new Error("Usage: add-webhook-endpoint.ts <team-slug> <url>");
const actor = { userId: null, ip: null, via: "cli" as const };
const { id } = await createEndpoint({ teamId: team.id, url, description: "e2e", events: ["lead.created"], actor });
const secret = await revealSigningSecret({ id, teamId: team.id, actor });
console.log(JSON.stringify({ id, secret }));
await db().$disconnect();
