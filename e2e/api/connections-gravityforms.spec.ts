import { expect, test } from "@playwright/test";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { setConnectionMapping } from "../../lib/connections/connection-changes";
import { GRAVITYFORMS_MAPPING, gravityFormsFormBody, gravityFormsJsonBody } from "../../lib/connections/fixtures/gravityforms-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// A Gravity Forms connection over real HTTP against `next start` (docs/connections.md "Gravity
// Forms"): made with the operator CLI, the entry the Webhooks Add-On posts for Request Body
// "All Fields" (JSON, then FORM), kept as "needs mapping" until the admin maps the input ids
// once, then the lead field by field; the same entry sent again is the same lead; a body
// that is not Gravity's stores nothing. The add-on cannot sign: there is no secret.

type Created = { id: string; url: string; signing_secret: string | null };

// As WordPress's HTTP API posts: its own User-Agent, the add-on's Content-Type.
const post = (url: string, body: string | Buffer, contentType: string) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": contentType, "User-Agent": "WordPress/6.8.1; https://rocket.test" },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";

test("a Gravity Forms connection made with the CLI: the entry needs mapping once, then becomes the lead, once; a foreign body stores nothing", async () => {
  const team = await newTeam();
  // "new": each delivery below is a lead of its own, the same example person or not (repeats: lib/intake/repeat-submissions.test.ts).
  const created = json(
    await cli("connections", "create", "--team", team.slug, "--builder", "gravityforms", "--repeats", "new", "--json"),
  ) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  expect(created.signing_secret).toBeNull();

  // Request Format JSON, Request Body All Fields: the answers are named by input id, unmapped.
  const entry = gravityFormsJsonBody("159");
  const kept = await post(created.url, entry, JSON_TYPE);
  expect(kept.status).toBe(202);
  expect(await kept.json()).toEqual({ success: true, lead_id: null, message: expect.stringContaining("needs mapping") });
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(0);

  // The admin maps the ids once (the connection's page); the add-on's next send of the entry makes the lead.
  await setConnectionMapping({ teamId: team.id, id: created.id, mapping: GRAVITYFORMS_MAPPING, actor: CLI_ACTOR });
  const made = await post(created.url, entry, JSON_TYPE);
  expect(made.status).toBe(201);
  const answer = (await made.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });
  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phone: "+32491223344",
    website: "https://example.com",
  });
  expect(lead.extraFields).toEqual({ "6": "Please call me back.\nThanks!", "4.1": "Newsletter" });

  // The same entry again (a re-sent feed): the same lead, nothing created.
  const again = await post(created.url, entry, JSON_TYPE);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  // Request Format FORM, another entry: another lead, read the same way.
  const form = await post(created.url, gravityFormsFormBody("160"), FORM_TYPE);
  expect(form.status).toBe(201);
  const second = await db().lead.findUniqueOrThrow({ where: { id: ((await form.json()) as { lead_id: string }).lead_id } });
  expect(second).toMatchObject({ connectionId: created.id, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });

  // Not the add-on's shape: refused, kept in the log to read, no lead.
  const foreign = await post(created.url, "[]", JSON_TYPE);
  expect(foreign.status).toBe(422);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(2);
  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.submissionId, row.attempts])).toEqual([
    ["created", 201, "rocket.test#159", 3],
    ["created", 201, "rocket.test#160", 1],
    ["refused", 422, null, 1],
  ]);
});
