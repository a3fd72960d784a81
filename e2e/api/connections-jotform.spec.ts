import { expect, test } from "@playwright/test";
import { JOTFORM_CONTENT_TYPE, jotformExampleBody, jotformFields, jotformMultipart } from "../../lib/connections/fixtures/jotform-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// Jotform over real HTTP against `next start` (docs/connections.md "Jotform"): a connection
// made with the operator CLI; a real Jotform delivery (lib/connections/fixtures/jotform-example.ts)
// posted as Jotform posts it, multipart/form-data with Jotform's boundary and CRLF line breaks.
// The lead field by field, the same submission again (200, the same lead), a form post without
// rawRequest (422, nothing stored). Jotform cannot sign: the URL is the credential.

type Created = { id: string; url: string; signing_secret: string | null };

const post = (url: string, body: string) => fetch(url, { method: "POST", headers: { "Content-Type": JOTFORM_CONTENT_TYPE }, body });

test("a Jotform connection made with the CLI: Jotform's multipart delivery becomes the lead, once; a post without rawRequest stores nothing", async () => {
  const team = await newTeam();
  const created = json(await cli("connections", "create", "--team", team.slug, "--builder", "jotform", "--json")) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  // Jotform cannot sign: the URL is the credential.
  expect(created.signing_secret).toBeNull();

  const body = jotformExampleBody();
  const first = await post(created.url, body);
  expect(first.status).toBe(201);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({ teamId: team.id, connectionId: created.id, firstName: "Niloth", lastName: "P", email: null });
  expect(lead.extraFields).toEqual({
    "Type of": "Online Tutoring",
    "Subject for": "Math",
    Grade: "12",
    "Prior tutoring": "No",
    Appointment: ["implementation: new", "duration: 60", "timezone: Asia/Calcutta (GMT+06:30)"],
    Table: ['colIds: ["0","1","2","3"]', 'rowIds: ["0","1","2","3"]'],
    "Identity proof": [
      "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227683/Student_ID_%21_%24%26%27%28%29_%2C-.%3B%3D%40%5B%5D%5E_%60%7B%7D~%20.png",
      "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227684/Driving.license.png",
    ],
    Reports: ["https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227685/Report%20Card.pdf"],
  });

  // Jotform posting the same submission again: the same lead, nothing created.
  const again = await post(created.url, body);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  // A form post that is not Jotform's webhook (no rawRequest): refused and kept in the log, no lead.
  const other = jotformMultipart(jotformFields().filter(([name]) => name !== "rawRequest"));
  const refused = await post(created.url, other);
  expect(refused.status).toBe(422);
  expect(await refused.json()).toEqual({
    success: false,
    error: "A Jotform delivery has a rawRequest field holding the answers as JSON",
    message: "Validation failed",
  });
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.attempts, row.submissionId, row.payload])).toEqual([
    ["created", 201, 2, "6084250982513018472", null],
    ["refused", 422, 1, null, other],
  ]);
});
