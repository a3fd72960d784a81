import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { createConnection } from "../../lib/connections/connection-changes";
import { tallyExample } from "../../lib/connections/fixtures/tally-example";
import { db } from "../../lib/db/client";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { authHeaders, BASE_URL, CREATE_LEAD, newTeam } from "../support/fixtures";

// Issue 42 over real HTTP against `next start` (SQLite, and PostgreSQL in npm test's second
// pass): on each channel that runs the spam checks, a spam post gets the same status, the
// same headers that matter and the same envelope as a kept lead, so its sender learns
// nothing; only the kept one is a lead, the other waits in the quarantine.

const SITE = "https://www.example.com";
const SPAM = { name: "Cheap SEO http://seo-offer.example/now", email: "offer@mailinator.com" };
const REAL = { name: "Ada Lovelace", email: "ada@example.com" };

type Envelope = { success: boolean; lead_id: string; message: string };

/** What a sender can see of an answer: its status, content type and envelope, the lead id's shape in place of the id. */
async function seen(response: Response): Promise<{ seen: unknown; leadId: string }> {
  const body = (await response.json()) as Envelope;
  return {
    leadId: body.lead_id,
    seen: {
      status: response.status,
      contentType: response.headers.get("content-type"),
      keys: Object.keys(body).sort(),
      success: body.success,
      message: body.message,
      leadId: /^CRM-LEAD-\d+$/.test(body.lead_id),
    },
  };
}

async function expectAlike(teamId: string, spam: Response, real: Response): Promise<void> {
  const [s, r] = [await seen(spam), await seen(real)];
  expect(s.seen).toEqual(r.seen);
  expect(s.seen).toMatchObject({ status: 201, success: true, message: "Lead created successfully", leadId: true });
  expect((await db().lead.findMany({ where: { teamId }, select: { id: true } })).map((lead) => lead.id)).toEqual([r.leadId]);
  expect((await db().quarantinedLead.findMany({ where: { teamId }, select: { id: true } })).map((row) => row.id)).toEqual([s.leadId]);
}

test("create_lead through a key with the spam checks on: a spam post is answered as a lead", async () => {
  const team = await newTeam();
  const key = await createApiKey({ teamId: team.id, description: "checked" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks: true } });
  const send = (fields: object) =>
    fetch(`${BASE_URL}${CREATE_LEAD}`, {
      method: "POST",
      headers: { ...authHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify(fields),
    });
  await expectAlike(team.id, await send(SPAM), await send(REAL));
});

test("a web form: a spam post is answered as a lead", async () => {
  const team = await newTeam();
  const formId = await createWebForm({
    teamId: team.id,
    settings: { name: "Contact", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: false },
    createdById: null,
    actor: CLI_ACTOR,
  });
  const send = (fields: Record<string, string>) =>
    fetch(`${BASE_URL}/api/forms/${formId}`, {
      method: "POST",
      headers: { Origin: SITE, Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(fields),
    });
  await expectAlike(team.id, await send(SPAM), await send(REAL));
});

test("a form builder's connection (Tally): a spam delivery is answered as a lead", async () => {
  const team = await newTeam();
  const made = await createConnection({ teamId: team.id, builder: "tally", repeats: "new", createdById: null, actor: CLI_ACTOR });
  const example = tallyExample() as { data: Record<string, unknown> };
  const send = (responseId: string, person: { name: string; email: string }) => {
    const fields = [
      { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: person.name },
      { key: "question_email", label: "Email", type: "INPUT_EMAIL", value: person.email },
    ];
    const body = JSON.stringify({ ...example, data: { ...example.data, responseId, submissionId: responseId, fields } });
    return fetch(`${BASE_URL}${made.path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Tally Webhooks",
        "Tally-Signature": createHmac("sha256", made.signingSecret!).update(body).digest("base64"),
      },
      body,
    });
  };
  await expectAlike(team.id, await send("spam-1", SPAM), await send("real-1", REAL));
});
