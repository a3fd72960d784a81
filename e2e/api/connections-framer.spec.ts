import { expect, test } from "@playwright/test";
import { FRAMER_SUBMISSION_ID, framerExample, framerHeaders } from "../../lib/connections/fixtures/framer-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// Framer over real HTTP against `next start` (docs/connections.md "Framer"): a connection made
// with the operator CLI, its secret set in Framer's webhook; the example body posted as Framer
// posts it (JSON, Framer-Signature "sha256=" + hex HMAC-SHA256 of the body followed by the
// Framer-Webhook-Submission-Id). The lead field by field, Framer's retry of the submission
// (200, the same lead), a wrong signature and a submission id that was not signed (401,
// nothing stored).

type Created = { id: string; url: string; signing_secret: string | null };

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

test("a Framer connection made with the CLI: the example signed as Framer signs becomes the lead, once; wrong signatures store nothing", async () => {
  const team = await newTeam();
  const created = json(await cli("connections", "create", "--team", team.slug, "--builder", "framer", "--json")) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  // Ours, to set in Framer's webhook: Framer asks for at least 32 characters.
  expect(created.signing_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const secret = created.signing_secret!;

  const body = JSON.stringify(framerExample());
  const headers = framerHeaders(body, secret);
  const first = await post(created.url, body, headers);
  expect(first.status).toBe(201);
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
    organization: "Analytical Engines",
  });
  expect(lead.extraFields).toEqual({ Budget: "€5k–€10k", Message: "We would like a new website for the spring launch." });

  // Framer retries a submission it got no 2xx for: the same submission id answers the same lead.
  const retry = await post(created.url, body, headers);
  expect(retry.status).toBe(200);
  expect(((await retry.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  const forged = await post(created.url, body, framerHeaders(body, "another-secret-of-at-least-32-chars"));
  expect(forged.status).toBe(401);
  expect(await forged.json()).toEqual({ success: false, error: "Invalid signature", message: "Authentication failed" });
  const otherId = await post(created.url, body, { ...headers, "Framer-Webhook-Submission-Id": "another-submission" });
  expect(otherId.status).toBe(401);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log[0]).toMatchObject({ outcome: "created", status: 201, attempts: 2, submissionId: FRAMER_SUBMISSION_ID, payload: null });
  expect(log.slice(1).every((row) => row.outcome === "refused" && row.status === 401 && row.payload === null)).toBe(true);
});
