import { createApiKey } from "../api-keys/api-key-changes";
import { db } from "../db/client";
import { errorResponse } from "../http/envelope";
import { createLeadFromRequest } from "./create-lead-request";
import { makeTeam } from "../leads/lead-ownership.fixtures";
import { createEndpoint } from "../webhooks/webhook-endpoint-changes";

// Shared setup of the quarantine's lifecycle tests (release, report, empty, retention,
// search): a team with a key that runs the spam checks and a webhook endpoint, posts through
// create_lead's use case, and quarantined rows written directly. Not a test file itself; each
// test file calls useTestDatabase() before using any of this.

export type Answer = { status: number; body: { success: boolean; lead_id: string; message: string } };

/** A spam submission: a link in the name, and a disposable address. */
export const SPAM = { name: "Cheap SEO http://seo-offer.example", email: "x@mailinator.com" };

let requests = 0;

/** Posts `fields` to create_lead with the key. */
export async function send(key: { keyId: string; secret: string }, fields: Record<string, unknown>): Promise<Answer> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `lifecycle-${++requests}`, ip: "198.51.100.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

/** A team of four (owner, admin, two members) with a key running the spam checks and an endpoint for new leads. */
export async function spamTeam() {
  const people = await makeTeam();
  await createEndpoint({
    teamId: people.team.id,
    url: "https://hooks.example.test/x",
    description: null,
    events: ["lead.created"],
    actor: { userId: people.owner.id, ip: null, via: "web" },
  });
  const key = await createApiKey({ teamId: people.team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks: true } });
  return { ...people, key };
}

let seq = 900_000_000;

/** A quarantined row written directly (search and retention tests): who it names, and when it arrived. */
export async function quarantined(
  teamId: string,
  fields: { name?: string; email?: string | null; phone?: string | null; mobileNo?: string | null; createdAt?: Date },
): Promise<string> {
  const n = ++seq;
  const id = `CRM-LEAD-${n}`;
  await db().quarantinedLead.create({
    data: {
      id,
      seq: n,
      teamId,
      name: fields.name ?? "Someone",
      emailKey: fields.email?.toLowerCase() ?? null,
      phone: fields.phone ?? null,
      mobileNo: fields.mobileNo ?? null,
      lead: { firstName: fields.name ?? "Someone", email: fields.email ?? null },
      source: { requested: undefined },
      score: 10,
      reasons: [{ code: "link_in_name", field: "name", points: 10 }],
      createdAt: fields.createdAt ?? new Date(),
    },
  });
  return id;
}
