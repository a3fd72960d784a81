import { expect, test } from "@playwright/test";
import { filloutEnvelope } from "../../lib/connections/fixtures/fillout-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// Fillout over real HTTP against `next start` (docs/connections.md "Fillout"): a connection
// made with the operator CLI; Fillout's documented example submission
// (lib/connections/fixtures/fillout-example.ts) posted as JSON in the { submission } envelope.
// The lead field by field, the same submission again (200, the same lead), a body without
// questions (422, nothing stored). Fillout does not sign: the URL is the credential.

type Created = { id: string; url: string; signing_secret: string | null };

const post = (url: string, body: string) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });

test("a Fillout connection made with the CLI: the documented submission becomes the lead, once; a body without questions stores nothing", async () => {
  const team = await newTeam();
  const created = json(await cli("connections", "create", "--team", team.slug, "--builder", "fillout", "--json")) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  // Fillout does not sign: the URL is the credential.
  expect(created.signing_secret).toBeNull();

  const body = JSON.stringify(filloutEnvelope());
  const first = await post(created.url, body);
  expect(first.status).toBe(201);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  // The booking's full name and email; the example's one question ("What's your name?") names no lead field.
  expect(lead).toMatchObject({ teamId: team.id, connectionId: created.id, firstName: "John", lastName: "Smith", email: "john@smith.com" });
  expect(lead.extraFields).toMatchObject({
    "What's your name?": "Timmy",
    "30 min meeting: eventStartTime": "2024-05-20T09:00:00.000Z",
    "email (2)": "example@example.com",
    price: "12.50",
    "Quiz score": 5,
    "Quiz maximum score": 10,
  });

  // Fillout posting the same submission again: the same lead, nothing created.
  const again = await post(created.url, body);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  // Not a Fillout submission (no questions): refused and kept in the log, no lead.
  const other = JSON.stringify({ formId: "foAdHjd1Duus", submission: { submissionId: "abc" } });
  const refused = await post(created.url, other);
  expect(refused.status).toBe(422);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.attempts, row.submissionId, row.payload])).toEqual([
    ["created", 201, 2, "abc", null],
    ["refused", 422, 1, null, other],
  ]);
});
