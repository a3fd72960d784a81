import { expect, test } from "@playwright/test";
import { WPFORMS_EXAMPLE_FORM, WPFORMS_EXAMPLE_JSON, wpformsHeaders } from "../../lib/connections/fixtures/wpforms-example";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// WPForms' Webhooks addon over real HTTP against `next start` (docs/connections.md "WPForms"):
// a connection made with the operator CLI, its secret pasted into the webhook's Secret; the
// Request Body the addon writes, posted as the addon posts it (Request Format JSON, then FORM)
// and signed as it signs (X-WPForms-Webhook-Signature "t=<seconds>,v=<hex HMAC-SHA256 of
// '<t>.<JSON>'>"; for a form, the JSON of the same keys). The lead field by field, the same
// delivery again (200, the same lead), a 10-minute-old timestamp and a wrong secret (401,
// nothing stored).

type Created = { id: string; url: string; signing_secret: string | null };

const JSON_BODY = WPFORMS_EXAMPLE_JSON.toString("utf8");
const FORM_BODY = WPFORMS_EXAMPLE_FORM.toString("utf8");
const nowSeconds = (minutes = 0) => Math.floor(Date.now() / 1000) + minutes * 60;

const post = (url: string, body: string, contentType: string, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": `${contentType}; charset=utf-8`, "User-Agent": "wpforms-webhooks/1.4.0", ...headers },
    body,
  });
const postJson = (url: string, headers: Record<string, string>) => post(url, JSON_BODY, "application/json", headers);
const postForm = (url: string, headers: Record<string, string>) => post(url, FORM_BODY, "application/x-www-form-urlencoded", headers);

test("a WPForms connection made with the CLI: the addon's JSON and form deliveries become the lead, once each; stale or wrong signatures store nothing", async () => {
  const team = await newTeam();
  // "new": each delivery below is a lead of its own, the same example person or not (repeats: lib/intake/repeat-submissions.test.ts).
  const created = json(
    await cli("connections", "create", "--team", team.slug, "--builder", "wpforms", "--repeats", "new", "--json"),
  ) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  expect(created.signing_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const secret = created.signing_secret!;

  const sentAt = nowSeconds();
  const signed = wpformsHeaders(JSON_BODY, secret, sentAt);
  const first = await postJson(created.url, signed);
  expect(first.status).toBe(201);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Renée",
    lastName: "Dupont",
    email: "renee.dupont@example.com",
    phone: "+32491223344",
    organization: "Acme Widgets & Co",
    website: "https://example.com/about",
    utmSource: "newsletter",
  });
  expect(lead.extraFields).toEqual({
    services: ["Web design", "SEO"],
    message: "Hi! Please call me after 5pm.\nThanks.",
    callback: "06/16/2025 10:30 am",
    attachments: ["https://example.com/wp-content/uploads/wpforms/12-0f3c/brief.pdf"],
  });

  // The same request again (WPForms sends no submission id: the signature's HMAC, over the
  // timestamp and the body, stands for it).
  const again = await postJson(created.url, signed);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  const stale = await postJson(created.url, wpformsHeaders(JSON_BODY, secret, nowSeconds(-10)));
  expect(stale.status).toBe(401);
  expect(await stale.json()).toEqual({ success: false, error: "Invalid signature", message: "Authentication failed" });
  expect((await postJson(created.url, wpformsHeaders(JSON_BODY, "not-the-secret", nowSeconds()))).status).toBe(401);
  expect((await postForm(created.url, wpformsHeaders(FORM_BODY, secret, nowSeconds()))).status).toBe(401);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  // Request Format FORM: the addon signs the JSON of the same keys and sends the form (another
  // entry, signed 30 s before the first: another submission, however the clock ticked meanwhile).
  const asForm = await postForm(created.url, wpformsHeaders(JSON_BODY, secret, sentAt - 30));
  expect(asForm.status).toBe(201);
  const formLead = await db().lead.findUniqueOrThrow({ where: { id: ((await asForm.json()) as { lead_id: string }).lead_id } });
  expect(formLead).toMatchObject({ firstName: "Renée", lastName: "Dupont", email: "renee.dupont@example.com", utmSource: "newsletter" });
  expect(formLead.extraFields).toEqual(lead.extraFields);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(2);
});
