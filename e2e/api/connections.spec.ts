import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { listAuditEvents } from "../../lib/audit/audit-log";
import { tallyExample } from "../../lib/connections/fixtures/tally-example";
import { typeformExample } from "../../lib/connections/fixtures/typeform-example";
import { webflowExample, webflowHeaders } from "../../lib/connections/fixtures/webflow-example";
import { db } from "../../lib/db/client";
import { BASE_URL, CREATE_LEAD, newTeam } from "../support/fixtures";

// Issue 30 over real HTTP against `next start` (SQLite, and PostgreSQL in npm test's second
// pass): a connection made with the operator CLI, Tally's documented example posted and
// signed as Tally signs it, the stored lead field by field, the builder's retry, a wrong
// signature, an unknown and a rolled URL, a delivery kept as "needs mapping".

function connections(...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/connections.ts", ...args], {
    env: { ...process.env, NEXTAUTH_URL: BASE_URL },
    encoding: "utf8",
  });
}

type Created = { id: string; url: string; signing_secret: string | null };

const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("base64");

function tallyBody(responseId: string, extraFields: unknown[] = []): string {
  const example = tallyExample() as { data: { fields: unknown[] } };
  return JSON.stringify({
    ...example,
    data: { ...example.data, responseId, submissionId: responseId, fields: [...example.data.fields, ...extraFields] },
  });
}
const FULL_NAME = { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: "Ada Lovelace" };

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "User-Agent": "Tally Webhooks", ...headers }, body });

test("a Tally connection made with the CLI: the signed example becomes the lead, once; wrong signatures and old URLs store nothing", async () => {
  const team = await newTeam();
  // "new": each delivery below is a lead of its own, the same example person or not (repeats: lib/intake/repeat-submissions.test.ts).
  const created = JSON.parse(connections("create", "--team", team.slug, "--builder", "tally", "--repeats", "new", "--json")) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  expect(created.signing_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // Nothing the CLI lists can be used as the URL or the secret again.
  const listed = connections("list", "--team", team.slug, "--json");
  expect(listed).not.toContain(created.url);
  expect(listed).not.toContain(created.signing_secret);

  const body = tallyBody("e2e-1", [FULL_NAME]);
  const signature = { "Tally-Signature": sign(body, created.signing_secret!) };
  const first = await post(created.url, body, signature);
  expect(first.status).toBe(201);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Ada",
    lastName: "Lovelace",
    email: "alice@example.com",
    phone: "+32491223344",
    website: "https://example.com",
    utmCampaign: "newsletter",
  });
  expect(lead.extraFields).toMatchObject({ Text: "Hello", Number: 10, Score: 20, Type: "Hard" });

  // Tally retries when an answer is slow or lost: the same submission answers the same lead.
  const retry = await post(created.url, body, signature);
  expect(retry.status).toBe(200);
  expect(((await retry.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  const forged = await post(created.url, body, { "Tally-Signature": sign(body, "not-the-secret") });
  expect(forged.status).toBe(401);
  expect(await forged.json()).toEqual({ success: false, error: "Invalid signature", message: "Authentication failed" });
  const unknown = await post(`${BASE_URL}/api/connections/c_AAAAAAAAAAAAAAAAAAAAAA`, body, signature);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({ success: false, error: "Connection not found", message: "Not found" });

  // Rolled with no grace: the old URL is refused at once, the new one works.
  const rolled = JSON.parse(connections("roll", created.id, "--team", team.slug, "--json")) as {
    url: string;
    old_url_works_until: string | null;
  };
  expect(rolled.old_url_works_until).toBeNull();
  const other = tallyBody("e2e-2", [{ ...FULL_NAME, value: "Grace Hopper" }]);
  const otherSignature = { "Tally-Signature": sign(other, created.signing_secret!) };
  expect((await post(created.url, other, otherSignature)).status).toBe(404);
  expect((await post(rolled.url, other, otherSignature)).status).toBe(201);

  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(2);
  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.attempts, row.payload])).toEqual([
    ["created", 201, 2, null],
    ["refused", 401, 1, null],
    ["created", 201, 1, null],
  ]);
  expect((await listAuditEvents(team.id)).map((event) => [event.action, event.via]).sort()).toEqual([
    ["connection.created", "cli"],
    ["connection.url_rolled", "cli"],
  ]);
});

test("a Generic JSON connection: a body without a name is kept as 'needs mapping' (202) and creates nothing; create_lead is untouched", async () => {
  const team = await newTeam();
  const created = JSON.parse(connections("create", "--team", team.slug, "--builder", "generic", "--json")) as Created;
  expect(created.signing_secret).toBeNull();
  const body = JSON.stringify({ email: "nobody@example.com", message: "Call me" });
  const kept = await post(created.url, body);
  expect(kept.status).toBe(202);
  expect(await kept.json()).toEqual({ success: true, lead_id: null, message: expect.stringContaining("needs mapping") });
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(0);
  const [row] = await db().connectionDelivery.findMany({ where: { connectionId: created.id } });
  expect([row!.outcome, row!.payload]).toEqual(["needs_mapping", body]);

  // The connection endpoint takes no API key; create_lead takes nothing but one.
  const viaApi = await fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  expect(viaApi.status).toBe(401);
});

test("a Typeform connection: its documented example signed as Typeform signs becomes the lead once; a wrong signature stores nothing", async () => {
  const team = await newTeam();
  const created = JSON.parse(connections("create", "--team", team.slug, "--builder", "typeform", "--json")) as Created;
  const example = typeformExample() as {
    form_response: { token: string; hidden: object; answers: unknown[]; definition: { fields: unknown[] } };
  };
  // The example's form has no name question: one is added, with a UTM hidden field.
  example.form_response.definition.fields.push({
    id: "nAmE7yPeF0rm",
    title: "What's your full name?",
    type: "short_text",
    ref: "full_name",
  });
  example.form_response.answers.push({ type: "text", text: "Laura Smith", field: { id: "nAmE7yPeF0rm", type: "short_text" } });
  example.form_response.hidden = { ...example.form_response.hidden, utm_source: "newsletter" };
  const body = JSON.stringify(example);
  const signature = `sha256=${sign(body, created.signing_secret!)}`;
  const headers = { "Typeform-Signature": signature, "User-Agent": "Typeform Webhooks" };

  const first = await post(created.url, body, headers);
  expect(first.status).toBe(201);
  const { lead_id: leadId } = (await first.json()) as { lead_id: string };
  const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
  expect(lead).toMatchObject({
    connectionId: created.id,
    firstName: "Laura",
    lastName: "Smith",
    email: "laura@example.com",
    utmSource: "newsletter",
  });
  expect((await post(created.url, body, headers)).status).toBe(200);
  expect((await post(created.url, body, { "Typeform-Signature": `sha256=${sign(body, "wrong")}` })).status).toBe(401);
  expect((await post(created.url, body, { "Typeform-Signature": sign(body, created.signing_secret!) })).status).toBe(401);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);
});

test("a Webflow connection made with Webflow's secret: its documented example signed now becomes the lead once; a 10-minute-old timestamp stores nothing", async () => {
  const team = await newTeam();
  const secret = "e2e-webflow-webhook-secret-0123456789abcdef";
  const created = JSON.parse(
    connections("create", "--team", team.slug, "--builder", "webflow", "--signing-secret", secret, "--json"),
  ) as Created;
  // The secret came from Webflow: it is never shown back.
  expect(created.signing_secret).toBeNull();
  const example = webflowExample() as { payload: Record<string, unknown> };
  example.payload.id = `e2e-webflow-${team.slug}`;
  const body = JSON.stringify(example);
  const headers = { ...webflowHeaders(body, secret, Date.now()), "User-Agent": "Webflow" };

  const first = await post(created.url, body, headers);
  expect(first.status).toBe(201);
  const { lead_id: leadId } = (await first.json()) as { lead_id: string };
  const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Zaphod",
    lastName: "Beeblebrox",
    email: "zaphod@heartofgold.ai",
    phone: null,
    skippedPhone: "15550000000",
  });
  expect((await post(created.url, body, { ...webflowHeaders(body, secret, Date.now()), "User-Agent": "Webflow" })).status).toBe(200);

  const stale = await post(created.url, body, webflowHeaders(body, secret, Date.now() - 10 * 60_000));
  expect(stale.status).toBe(401);
  expect(await stale.json()).toEqual({ success: false, error: "Invalid signature", message: "Authentication failed" });
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);
});
