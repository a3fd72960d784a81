import { expect, test } from "@playwright/test";
import { ELEMENTOR_ADVANCED_EXAMPLE, ELEMENTOR_EXAMPLE } from "../../lib/connections/fixtures/elementor-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// An Elementor Pro connection over real HTTP against `next start` (docs/connections.md
// "Elementor Pro"): made with the operator CLI, the Form widget's Webhook action's body
// (urlencoded, Advanced Data on, then off) becomes the lead field by field; the same body
// again is the same lead (Elementor sends no submission id: the body's digest is the
// submission); a JSON body is not Elementor's and stores nothing. The action cannot sign:
// there is no secret.

type Created = { id: string; url: string; signing_secret: string | null };

// As WordPress's HTTP API posts an array body: urlencoded, with its own User-Agent.
const post = (url: string, body: string | Buffer, contentType = "application/x-www-form-urlencoded") =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": contentType, "User-Agent": "WordPress/6.8.1; https://example.com" },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });

test("an Elementor Pro connection made with the CLI: the webhook's body becomes the lead, once; a JSON body stores nothing", async () => {
  const team = await newTeam();
  // "new": each delivery below is a lead of its own, the same example person or not (repeats: lib/intake/repeat-submissions.test.ts).
  const created = json(
    await cli("connections", "create", "--team", team.slug, "--builder", "elementor", "--repeats", "new", "--json"),
  ) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  expect(created.signing_secret).toBeNull();

  // Advanced Data on: fields with their ids and types.
  const first = await post(created.url, ELEMENTOR_ADVANCED_EXAMPLE);
  // Elementor Pro counts only a 200 as its action succeeding (docs/connections.md "Elementor Pro"): a new lead answers 200.
  expect(first.status).toBe(200);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });
  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phone: "+32491223344",
  });
  expect(lead.extraFields).toEqual({ Message: "Please call me back.\nThanks!", Interests: ["Pricing", "Demo"] });

  // The same body again: the same lead.
  const again = await post(created.url, ELEMENTOR_ADVANCED_EXAMPLE);
  expect(again.status).toBe(200);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  // Advanced Data off: labels and values, the metadata rows apart.
  const simple = await post(created.url, ELEMENTOR_EXAMPLE);
  expect(simple.status).toBe(200);
  const other = await db().lead.findUniqueOrThrow({ where: { id: ((await simple.json()) as { lead_id: string }).lead_id } });
  expect(other).toMatchObject({ connectionId: created.id, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
  expect(other.extraFields).toEqual({ Message: "Please call me back.\nThanks!", Interests: "Pricing, Demo" });

  // JSON is not what Elementor sends: refused, kept in the log to read, no lead.
  const plainJson = JSON.stringify({ Name: "Grace Hopper", form_id: "2c4c3bd" });
  const refused = await post(created.url, plainJson, "application/json");
  expect(refused.status).toBe(422);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(2);
  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.attempts, row.payload])).toEqual([
    ["created", 201, 2, null],
    ["created", 201, 1, null],
    ["refused", 422, 1, plainJson],
  ]);
});
