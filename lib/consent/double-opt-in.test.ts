import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, mock, test } from "node:test";
import { startSmtpSink } from "../notifications/smtp-sink.fixtures";

// Double opt-in (issue 46, step 2; docs/consent.md "Double opt-in"), on a real database (SQLite,
// and PostgreSQL with TEST_DATABASE_URL) and a local SMTP sink: the signed single-use link and
// its expiry on the app's clock, the email (text, HTML, RFC 8058 headers) sent through the
// dispatcher, the 24 h limit and "already confirmed", no email for a quarantined submission,
// the link's page (GET shows, POST confirms; reused, forged, another team's, expired refused),
// lead.consent_changed, "Resend confirmation" and the one-click unsubscribe.

const received = await startSmtpSink();
const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "doi-clock-")), "now");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
after(() => delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE);
const START = Date.now();
/** Moves the app's clock to `hours` after the test's start. */
const setClock = (hours: number) => writeFileSync(clockFile, new Date(START + hours * 3_600_000).toISOString());
setClock(0);

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { db } = await import("../db/client");
const { now } = await import("../time/clock");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { createEndpoint } = await import("../webhooks/webhook-endpoint-changes");
const { setFormConsent } = await import("./consent-changes");
const { listFormConsentVersions } = await import("./consent-version-store");
const { confirmationToken, newConfirmationId, tokenHash, verifyConfirmationToken } = await import("./confirmation-token");
const { CONFIRMATION_EMAIL, requestConfirmation, resendConfirmation } = await import("./double-opt-in");
const { findLeadConsents } = await import("./lead-consent-store");
const { exportLeadBatches } = await import("../leads/lead-export-store");
const { EMPTY_FILTER } = await import("../leads/lead-filter");
const { exportCells, EXPORT_COLUMNS } = await import("../leads/export-leads");

/** The export's consent cells of the team's lead. */
async function exportedConsent(team: { id: string }, leadId: string) {
  for await (const batch of exportLeadBatches({ id: team.id, defaultPhoneCountry: null }, EMPTY_FILTER))
    for (const lead of batch)
      if (lead.id === leadId) {
        const cells = exportCells(lead);
        return { status: cells[EXPORT_COLUMNS.indexOf("consent_status")], at: cells[EXPORT_COLUMNS.indexOf("consent_at")] };
      }
  return null;
}
const pages = await import("./confirmation-page");

/** What the routes (app/api/consent/[team]/[token]/…) answer: thin handlers around confirmation-page.ts. */
type Params = { params: Promise<{ team: string; token: string }> };
const route = {
  GET: async (_request: Request, { params }: Params) => pages.confirmationPage((await params).team, (await params).token),
  // Held submissions' links (lib/intake/confirm-held.ts) are lib/intake/held-submissions.test.ts': none here.
  POST: async (request: Request, { params }: Params) =>
    pages.confirmationPost(request, (await params).team, (await params).token, async () => false),
};
const unsubscribeRoute = {
  GET: async (_request: Request, { params }: Params) => pages.unsubscribePage((await params).team, (await params).token),
  POST: async (request: Request, { params }: Params) => pages.unsubscribePost(request, (await params).team, (await params).token),
};

mock.method(process.stderr, "write", () => true);

const { linkIn, mailDelivery } = await import("./confirmation-mail.fixtures");
/** Sends every due email; returns the messages the sink got meanwhile. */
const deliver = mailDelivery(received);

const UA = "Mozilla/5.0 (X11; Linux x86_64) ConfirmTest/1.0";

/** A team's web form asking consent, with double opt-in (or not), and a webhook endpoint for lead.consent_changed. */
async function doubleOptInForm(doubleOptIn = true) {
  const { team, formId } = await newForm({ challenge: false });
  const settings = { text: "Send me the newsletter of Example Ltd.", purpose: "Newsletter", policyUrl: null, required: false };
  assert.equal(await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn, actor: CLI_ACTOR }), true);
  const [version] = await listFormConsentVersions({ teamId: team.id, formId });
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/in",
    description: null,
    events: ["lead.created", "lead.consent_changed"],
    actor: CLI_ACTOR,
  });
  return { team, formId, version: version! };
}

async function submit(formId: string, fields: Record<string, string>) {
  const response = await post(formId, fields);
  assert.ok(response.status === 201 || response.status === 200, `stored (${response.status})`);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

/** The route's params of a link. */
function paramsOf(link: string) {
  const [team, token] = new URL(link).pathname.split("/").slice(3);
  return { params: Promise.resolve({ team: decodeURIComponent(team!), token: token! }) };
}

const browser = (link: string, method: "GET" | "POST") =>
  new Request(link, { method, headers: { "user-agent": UA, "x-forwarded-for": "192.0.2.44" } });

describe("the signed link", () => {
  test("a token verifies to its id; an altered signature, an altered id or garbage does not; only its hash is kept", () => {
    const id = newConfirmationId();
    const token = confirmationToken(id);
    assert.equal(verifyConfirmationToken(token), id);
    const [, signature] = token.split(".");
    const flipped = signature!.startsWith("A") ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    assert.equal(verifyConfirmationToken(`${id}.${flipped}`), null);
    assert.equal(verifyConfirmationToken(`${newConfirmationId()}.${signature}`), null);
    assert.equal(verifyConfirmationToken("cc_x.y"), null);
    assert.equal(verifyConfirmationToken(""), null);
    assert.match(tokenHash(token), /^[0-9a-f]{64}$/);
  });
});

describe("the confirmation email after a submission that gave consent", () => {
  test("pending evidence, one email in text and HTML with List-Unsubscribe and one-click headers; the token is stored nowhere", async () => {
    setClock(0);
    const { team, formId, version } = await doubleOptInForm();
    const leadId = await submit(formId, { name: "Ada Lovelace", email: "Ada@Example.com", consent: "yes", consent_version: version.id });
    const [evidence] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(evidence!.status, "pending");
    const created = await db().job.findFirstOrThrow({ where: { teamId: team.id, eventType: "lead.created" } });
    assert.equal(JSON.parse(created.payload).data.lead.consent.status, "pending", "lead.created carries it");
    const mails = await deliver();
    assert.equal(mails.length, 1);
    const [mail] = mails;
    assert.deepEqual(mail!.to, ["Ada@example.com"], "the lead's address (its domain in lower case)");
    assert.equal(mail!.subject, `Please confirm: ${team.name}`);
    const link = linkIn(mail!.raw);
    assert.ok(mail!.headers.includes(`List-Unsubscribe: <${link}/unsubscribe>`), mail!.headers.join("\n"));
    assert.ok(mail!.headers.includes("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    assert.match(mail!.raw, /Content-Type: text\/plain/);
    assert.match(mail!.raw, /Content-Type: text\/html/);
    const token = link.split("/").at(-1)!;
    const row = await db().consentConfirmation.findFirstOrThrow({ where: { leadId } });
    assert.equal(row.tokenHash, tokenHash(token));
    assert.equal(row.emailKey, "ada@example.com");
    assert.equal(row.expiresAt.getTime() - row.createdAt.getTime(), 100 * 3_600_000, "valid 100 hours");
    const job = await db().job.findFirstOrThrow({ where: { teamId: team.id, eventType: CONFIRMATION_EMAIL } });
    assert.ok(!job.payload.includes(token.split(".")[1]!), "the job holds the id, not the signed token");
  });

  test("at most one email a day to a person still pending, none once confirmed, whichever lead or form it is", async () => {
    setClock(0);
    const { team, formId, version } = await doubleOptInForm();
    const fields = { name: "Grace Hopper", email: "grace@example.com", consent: "yes", consent_version: version.id };
    await submit(formId, fields);
    assert.equal((await deliver()).length, 1);
    setClock(23);
    await submit(formId, fields);
    assert.equal((await deliver()).length, 0, "a second submission within 24 h: no email");
    setClock(25);
    await submit(formId, fields);
    const mails = await deliver();
    assert.equal(mails.length, 1, "a day later: one more");
    const link = linkIn(mails[0]!.raw);
    assert.equal((await route.POST(browser(link, "POST"), paramsOf(link))).status, 200);
    setClock(60);
    await submit(formId, fields);
    assert.equal((await deliver()).length, 0, "confirmed: no email again");
    assert.equal(await db().consentConfirmation.count({ where: { teamId: team.id } }), 2);
  });

  test("no email without consent, without double opt-in, or for a quarantined submission", async () => {
    setClock(0);
    const { team, formId, version } = await doubleOptInForm();
    await submit(formId, { name: "No Consent", email: "none@example.com", consent_version: version.id });
    await submit(formId, {
      name: "Cheap SEO http://seo-offer.example",
      email: "x@mailinator.com",
      consent: "yes",
      consent_version: version.id,
    });
    assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 1, "the spam went to the quarantine");
    const plain = await doubleOptInForm(false);
    const leadId = await submit(plain.formId, {
      name: "Given Only",
      email: "given@example.com",
      consent: "yes",
      consent_version: plain.version.id,
    });
    assert.equal((await findLeadConsents({ teamId: plain.team.id, leadId }))[0]!.status, "given");
    assert.equal((await deliver()).length, 0);
    assert.equal(await db().consentConfirmation.count({ where: { teamId: { in: [team.id, plain.team.id] } } }), 0);
  });
});

test("two submissions of one person at once send one email (the person's lock)", async () => {
  setClock(0);
  const { formId, version } = await doubleOptInForm();
  const fields = { name: "Ada Byron", email: "byron@example.com", consent: "yes", consent_version: version.id };
  await Promise.all([submit(formId, fields), submit(formId, fields), submit(formId, fields)]);
  assert.equal((await deliver()).filter((mail) => mail.to.includes("byron@example.com")).length, 1);
});

describe("the link's page", () => {
  async function pendingLead() {
    setClock(0);
    const form = await doubleOptInForm();
    const leadId = await submit(form.formId, {
      name: "Mary Somerville",
      email: "mary@example.com",
      consent: "yes",
      consent_version: form.version.id,
    });
    const [mail] = await deliver();
    return { ...form, leadId, link: linkIn(mail!.raw) };
  }

  test("GET shows the team's name and a Confirm button and changes nothing; POST confirms with time, address and user agent, once", async () => {
    const { team, leadId, link, version } = await pendingLead();
    setClock(2);
    const shown = await route.GET(browser(link, "GET"), paramsOf(link));
    assert.equal(shown.status, 200);
    assert.equal((await exportedConsent(team, leadId))?.status, "pending");
    const html = await shown.text();
    assert.ok(html.includes(team.name));
    assert.match(html, /<form method="post"><button type="submit">Confirm<\/button><\/form>/);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId }))[0]!.status, "pending", "a GET confirms nothing");

    const confirmed = await route.POST(browser(link, "POST"), paramsOf(link));
    assert.equal(confirmed.status, 200);
    assert.ok((await confirmed.text()).includes(team.name));
    const [latest, earlier] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(latest!.status, "confirmed");
    assert.equal(latest!.channel, "email");
    assert.equal(latest!.versionId, version.id, "the version the person was asked");
    assert.equal(latest!.consentAt.getTime(), START + 2 * 3_600_000, "the app's clock");
    assert.equal(latest!.userAgent, UA);
    assert.ok(latest!.ip);
    assert.equal(earlier!.status, "pending");
    assert.deepEqual(
      await exportedConsent(team, leadId),
      { status: "confirmed", at: latest!.consentAt.toISOString() },
      "the export's columns",
    );
    const event = await db().job.findFirstOrThrow({ where: { teamId: team.id, eventType: "lead.consent_changed" } });
    const body = JSON.parse(event.payload);
    assert.deepEqual(body.data.consent, { status: "confirmed", version: version.id, at: latest!.consentAt.toISOString() });
    assert.equal(body.data.lead_id, leadId);

    const again = await route.POST(browser(link, "POST"), paramsOf(link));
    assert.equal(again.status, 409, "used");
    assert.equal((await route.GET(browser(link, "GET"), paramsOf(link))).status, 409);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId })).length, 2, "reuse changes nothing");
    assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.consent_changed" } }), 1);
  });

  test("a forged link, another team's, or an expired one is refused and changes nothing", async () => {
    const { team, leadId, link } = await pendingLead();
    const other = await doubleOptInForm();
    const forged = link.replace(/\.[^.]+$/, `.${"A".repeat(43)}`);
    for (const [address, params] of [
      [forged, paramsOf(forged)],
      [link, { params: Promise.resolve({ team: other.team.slug, token: link.split("/").at(-1)! }) }],
      [link, { params: Promise.resolve({ team: team.slug, token: confirmationToken(newConfirmationId()) }) }],
    ] as const) {
      assert.equal((await route.GET(browser(address, "GET"), params)).status, 404);
      const refused = await route.POST(browser(address, "POST"), params);
      assert.equal(refused.status, 404);
      assert.match(await refused.text(), /This link is not valid/);
    }
    setClock(100);
    const expired = await route.POST(browser(link, "POST"), paramsOf(link));
    assert.equal(expired.status, 410);
    assert.match(await expired.text(), /expired/);
    assert.deepEqual(
      (await findLeadConsents({ teamId: team.id, leadId })).map((item) => item.status),
      ["pending"],
    );
    assert.equal(await db().consentConfirmation.count({ where: { leadId, confirmedAt: { not: null } } }), 0);
  });

  test("the one-click unsubscribe (RFC 8058) records withdrawn evidence once", async () => {
    const { team, leadId, link } = await pendingLead();
    setClock(1);
    const oneClick = new Request(`${link}/unsubscribe`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal((await unsubscribeRoute.GET(browser(`${link}/unsubscribe`, "GET"), paramsOf(link))).status, 200);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId }))[0]!.status, "pending", "a GET withdraws nothing");
    assert.equal((await unsubscribeRoute.POST(oneClick, paramsOf(link))).status, 200);
    assert.equal((await unsubscribeRoute.POST(oneClick.clone(), paramsOf(link))).status, 200);
    assert.deepEqual(
      (await findLeadConsents({ teamId: team.id, leadId })).map((item) => item.status),
      ["withdrawn", "pending"],
    );
    assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.consent_changed" } }), 1);
  });

  test("after the unsubscribe, a new submission of the address (case and spaces aside) is kept, withdrew consent before, and no email is sent", async () => {
    const { team, formId, version, leadId, link } = await pendingLead();
    setClock(30);
    assert.equal((await unsubscribeRoute.POST(browser(`${link}/unsubscribe`, "POST"), paramsOf(link))).status, 200);
    const [entry, ...more] = await db().consentSuppression.findMany({ where: { teamId: team.id } });
    assert.equal(more.length, 0);
    assert.equal(entry!.reason, "withdrawn");
    setClock(60);
    // Kept: joined to the person's lead (the form adds repeats), with its own evidence.
    const again = await submit(formId, {
      name: "Mary Somerville",
      email: " Mary@Example.com ",
      consent: "yes",
      consent_version: version.id,
    });
    assert.equal(again, leadId);
    const [evidence] = await findLeadConsents({ teamId: team.id, leadId: again });
    assert.equal(evidence!.status, "withdrawn_before");
    assert.match(evidence!.note!, /withdrew consent on .*This submission: consent given \(double opt-in: no confirmation email sent\)/);
    assert.deepEqual(await deliver(), [], "no confirmation email to a suppressed address");
    assert.deepEqual(await requestConfirmation({ teamId: team.id, leadId, email: "MARY@example.com", at: now() }), {
      result: "suppressed",
    });
    assert.equal(await db().consentConfirmation.count({ where: { leadId: again } }), 1, "the first email only");
    assert.deepEqual(await exportedConsent(team, again).then((cells) => cells?.status), "withdrawn_before");
  });
});

describe("Resend confirmation", () => {
  test("owners and admins resend to a pending lead: refused within 24 h of the last email, sent after, audited", async () => {
    setClock(0);
    const { team, formId, version } = await doubleOptInForm();
    const leadId = await submit(formId, { name: "Emmy Noether", email: "emmy@example.com", consent: "yes", consent_version: version.id });
    await deliver();
    setClock(10);
    const limited = await resendConfirmation({ teamId: team.id, leadId, actor: CLI_ACTOR, at: now() });
    assert.equal(limited?.result, "limited");
    assert.equal(limited?.result === "limited" && limited.nextAt.getTime(), START + 24 * 3_600_000);
    setClock(30);
    assert.equal((await resendConfirmation({ teamId: team.id, leadId, actor: CLI_ACTOR, at: now() }))?.result, "queued");
    const mails = await deliver();
    assert.equal(mails.length, 1);
    assert.equal(
      await db().auditEvent.count({ where: { teamId: team.id, action: "lead.consent_confirmation_sent", targetId: leadId } }),
      1,
    );
    assert.equal(await resendConfirmation({ teamId: "another-team", leadId, actor: CLI_ACTOR, at: now() }), null);
  });
});
