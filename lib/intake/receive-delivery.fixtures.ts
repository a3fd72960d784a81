import { createHmac } from "node:crypto";
import { CLI_ACTOR } from "../audit/audit-log";
import type { BuilderId } from "../connections/builders";
import * as changes from "../connections/connection-changes";
import { tallyExample } from "../connections/fixtures/tally-example";
import { db } from "../db/client";
import { errorResponse } from "../http/envelope";
import { requestContext } from "../http/request-context";
import { createTeam } from "../teams/team-store";
import { deliveryResponse, receiveDelivery } from "./receive-delivery";

// Shared setup of the connection endpoint's tests (receive-delivery*.test.ts): a team with a
// connection, Tally's signature, posts to the endpoint's use case answered as the route
// answers. Not a test file itself: each test file calls useTestDatabase(), then imports this
// with `await import(…)`, like its own lib modules.

export { changes, CLI_ACTOR, db, tallyExample };

let teams = 0;
/**
 * A new team with a connection of `builder`. Set to "new" unless told (these tests send one
 * example person many times and each submission is about a lead of its own; repeat
 * submissions are repeat-submissions.test.ts').
 */
export async function connect(builder: BuilderId, repeats: "add" | "new" = "new") {
  const team = await createTeam({ slug: `connections-${++teams}`, name: `Connections ${teams}` });
  const created = await changes.createConnection({ teamId: team.id, builder, createdById: null, actor: CLI_ACTOR, repeats });
  return { team, ...created, token: created.path.split("/").pop()! };
}

export const tallySignature = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("base64");

/** Posts to the connection endpoint's use case and answers as the route does. */
export async function deliver(token: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://127.0.0.1/api/connections/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7", ...headers },
    body,
  });
  const context = requestContext(request);
  try {
    return deliveryResponse(await receiveDelivery({ request, context, token }));
  } catch (error) {
    return errorResponse(error, context);
  }
}

export const tallyBody = (fields: unknown[] = [], responseId = "2wgx4n") => {
  const example = tallyExample() as { data: { fields: unknown[] } };
  return JSON.stringify({
    ...example,
    data: { ...example.data, responseId, submissionId: responseId, fields: [...example.data.fields, ...fields] },
  });
};
export const FULL_NAME = { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: "Ada Lovelace" };

export const leadsOf = (teamId: string) => db().lead.findMany({ where: { teamId }, include: { source: true } });
export const logOf = (connectionId: string) => db().connectionDelivery.findMany({ where: { connectionId }, orderBy: { createdAt: "asc" } });
