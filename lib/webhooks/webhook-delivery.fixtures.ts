import { after } from "node:test";
import { startWebhookReceiver } from "../../test/support/webhook-receiver";
import { db } from "../db/client";
import { Dispatcher } from "../jobs/dispatcher";
import { createLead } from "../leads/create-lead";
import { parseLeadInput } from "../leads/parse-lead-input";
import { createTeam } from "../teams/team-store";
import { webhookHandler } from "./webhook-delivery";
import { createEndpoint, revealSigningSecret } from "./webhook-endpoint-changes";

// Shared setup of the webhook delivery tests (webhook-delivery-*.test.ts,
// webhook-endpoint-edit-rotate.test.ts): a receiver on 127.0.0.1 that checks signatures, teams
// with an endpoint on it, leads that queue deliveries, and dispatchers on a clock the test
// moves. Not a test file itself: each test file calls useTestDatabase() first, then imports
// this with `await import(…)`, like its own lib modules.

export const actor = { userId: null, ip: null, via: "cli" as const };
export const receiver = await startWebhookReceiver();
after(() => receiver.close());

let teams = 0;
/** The number of the next team's slug (hooks-1, hooks-2, …). */
export const nextTeam = () => ++teams;
/** How many teams were numbered so far. */
export const teamsMade = () => teams;

export async function teamWithEndpoint(url = receiver.url) {
  const team = await createTeam({ slug: `hooks-${nextTeam()}`, name: `Hooks ${teamsMade()}` });
  const endpoint = await createEndpoint({ teamId: team.id, url, description: null, events: ["lead.created"], actor });
  receiver.secret = await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor });
  return { team, endpoint };
}

export const lead = (team: { id: string }, name: string) =>
  createLead({
    team: { id: team.id, defaultPhoneCountry: null },
    apiKeyId: "key-1",
    input: parseLeadInput([
      ["name", name],
      ["utm_source", "ads"],
      ["colour", "teal"],
    ]),
  });

/** A dispatcher on a clock the test moves. */
export function dispatcher(options: { allowPrivate?: boolean; workerId?: string; clock?: { now: Date } } = {}) {
  const clock = options.clock ?? { now: new Date(Date.now() + 1_000) };
  const instance = new Dispatcher({
    handlers: {
      webhook: webhookHandler({ allowPrivate: options.allowPrivate ?? true }),
      email: { run: async () => ({ ok: false, error: "not in this test", retry: false }) },
    },
    workerId: options.workerId,
    now: () => clock.now,
    random: () => 0.5,
    leaseMs: 60_000,
    retryBaseMs: 30_000,
    retentionMs: 30 * 24 * 60 * 60 * 1000,
  });
  return { dispatcher: instance, clock };
}

export const jobsOf = (teamId: string) => db().job.findMany({ where: { teamId }, orderBy: { createdAt: "asc" } });
