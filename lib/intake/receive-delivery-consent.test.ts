import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Consent on a form builder's connection (issue 46, step 4; docs/consent.md "Connections"), on
// a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): the connection's own consent
// versions, the evidence derived from the answer mapped to "consent" (the answer stays an extra
// field as sent), a required consent not given kept and noted, the double opt-in email queued
// for a delivery, and a suppressed address marked, never emailed.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR, connect, db, deliver, FULL_NAME, tallyBody, tallySignature, changes } = await import("./receive-delivery.fixtures");
const { setChannelConsent, setFormConsent } = await import("../consent/consent-changes");
const { listConsentVersions, listFormConsentVersions } = await import("../consent/consent-version-store");
const { REQUIRED_NOT_GIVEN } = await import("../consent/consent-evidence");
const { CONFIRMATION_EMAIL } = await import("../consent/double-opt-in");
const { findLeadConsents } = await import("../consent/lead-consent-store");
const { suppressAddresses } = await import("../consent/suppression-store");
const { createWebForm } = await import("../web-forms/web-form-changes");
const { SITE } = await import("../web-forms/web-forms.fixtures");

mock.method(process.stderr, "write", () => true);

const SETTINGS = { text: "Send me Example Ltd.'s newsletter.", purpose: "Newsletter", policyUrl: null, required: false };

/** A connection of `builder` recording consent (its first version), with `mapping`. */
async function consenting(
  builder: "generic" | "tally",
  options: { required?: boolean; doubleOptIn?: boolean; mapping?: Record<string, "consent"> } = {},
) {
  const c = await connect(builder);
  const settings = { ...SETTINGS, required: options.required ?? false };
  const channel = { kind: "connection", id: c.id } as const;
  assert.equal(await setChannelConsent({ teamId: c.team.id, channel, settings, doubleOptIn: options.doubleOptIn, actor: CLI_ACTOR }), true);
  if (options.mapping)
    assert.equal(await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: options.mapping, actor: CLI_ACTOR }), true);
  const [version] = await listConsentVersions({ teamId: c.team.id, channel });
  return { ...c, version: version! };
}

/** Delivers a Generic JSON body; the new lead's id. */
async function genericLead(token: string, body: Record<string, unknown>): Promise<string> {
  const response = await deliver(token, JSON.stringify(body));
  assert.equal(response.status, 201);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

const evidenceOf = async (teamId: string, leadId: string) => findLeadConsents({ teamId, leadId });

describe("a connection's consent versions", () => {
  test("every edit makes a version of the connection's own, numbered apart from a web form's; the same text none", async () => {
    const c = await connect("generic");
    const channel = { kind: "connection", id: c.id } as const;
    const set = (settings: typeof SETTINGS | null) => setChannelConsent({ teamId: c.team.id, channel, settings, actor: CLI_ACTOR });
    assert.equal(await set(SETTINGS), true);
    assert.equal(await set(SETTINGS), true, "the same settings: no new version");
    assert.equal(await set({ ...SETTINGS, text: "Send me the newsletter and offers." }), true);
    const versions = await listConsentVersions({ teamId: c.team.id, channel });
    assert.deepEqual(
      versions.map((version) => [version.number, version.connectionId, version.formId]),
      [
        [2, c.id, null],
        [1, c.id, null],
      ],
    );
    const formId = await createWebForm({
      teamId: c.team.id,
      settings: { name: "Contact", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: false },
      createdById: null,
      actor: CLI_ACTOR,
    });
    assert.equal(await setFormConsent({ teamId: c.team.id, formId, settings: SETTINGS, actor: CLI_ACTOR }), true);
    assert.deepEqual(
      (await listFormConsentVersions({ teamId: c.team.id, formId })).map((version) => version.number),
      [1],
    );
    const audited = await db().auditEvent.findMany({ where: { teamId: c.team.id, action: "connection.consent_set" } });
    assert.equal(audited.length, 2);
    assert.equal(await set(null), true);
    assert.equal((await db().connection.findUnique({ where: { id: c.id } }))!.consentVersionId, null, "stops asking; versions kept");
    assert.equal((await listConsentVersions({ teamId: c.team.id, channel })).length, 2);
    const other = await connect("generic");
    assert.equal(
      await setChannelConsent({ teamId: other.team.id, channel, settings: SETTINGS, actor: CLI_ACTOR }),
      false,
      "another team's connection",
    );
  });
});

describe("evidence from the answer mapped to consent", () => {
  test("Tally's ticked checkboxes give consent: the version, the receive time, no address nor browser; the answer stays an extra field", async () => {
    const c = await consenting("tally", { mapping: { question_wQ1K7w: "consent" } });
    const before = Date.now();
    const body = tallyBody([FULL_NAME]);
    const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
    assert.equal(response.status, 201);
    const leadId = ((await response.json()) as { lead_id: string }).lead_id;
    const [evidence, ...more] = await evidenceOf(c.team.id, leadId);
    assert.equal(more.length, 0);
    assert.equal(evidence!.status, "given");
    assert.equal(evidence!.channel, "connection");
    assert.equal(evidence!.versionId, c.version.id);
    assert.equal(evidence!.ip, null, "the request is Tally's server (198.51.100.7), never recorded as the person's");
    assert.equal(evidence!.userAgent, null);
    assert.ok(evidence!.consentAt.getTime() >= before - 1_000);
    const lead = await db().lead.findUnique({ where: { id: leadId } });
    const extra = (typeof lead!.extraFields === "string" ? JSON.parse(lead!.extraFields) : lead!.extraFields) as Record<string, unknown>;
    assert.deepEqual(extra.Checkboxes, ["Swimming", "Skiing"], "derived, never moved");
    const [row] = await db().connectionDelivery.findMany({ where: { connectionId: c.id, outcome: "created" } });
    const answers = (typeof row!.answers === "string" ? JSON.parse(row!.answers) : row!.answers) as { key: string; target: string }[];
    assert.equal(answers.find((answer) => answer.key === "question_wQ1K7w")!.target, "consent");
  });

  test('Generic JSON: "yes" gives, "no" and a missing answer do not; only the mapped answer counts', async () => {
    const c = await consenting("generic", { mapping: { newsletter: "consent" } });
    const given = await genericLead(c.token, { name: "Ada Lovelace", email: "ada@example.com", newsletter: "Yes" });
    const refused = await genericLead(c.token, { name: "Grace Hopper", email: "grace@example.com", newsletter: "no", consent: "yes" });
    const missing = await genericLead(c.token, { name: "Emmy Noether", email: "emmy@example.com" });
    assert.equal((await evidenceOf(c.team.id, given))[0]!.status, "given");
    for (const leadId of [refused, missing]) {
      const [evidence] = await evidenceOf(c.team.id, leadId);
      assert.equal(evidence!.status, "not_given");
      assert.equal(evidence!.versionId, c.version.id);
      assert.equal(evidence!.note, null, "optional: no note");
    }
  });

  test("a connection without consent makes no evidence; a mapped answer without a version makes evidence without text", async () => {
    const plain = await connect("generic");
    const none = await genericLead(plain.token, { name: "Ada Lovelace", email: "ada@example.com", newsletter: "yes" });
    assert.equal((await evidenceOf(plain.team.id, none)).length, 0);
    await changes.setConnectionMapping({ teamId: plain.team.id, id: plain.id, mapping: { newsletter: "consent" }, actor: CLI_ACTOR });
    const mapped = await genericLead(plain.token, { name: "Grace Hopper", email: "grace@example.com", newsletter: "yes" });
    const [evidence] = await evidenceOf(plain.team.id, mapped);
    assert.equal(evidence!.status, "given");
    assert.equal(evidence!.versionId, null);
  });

  test("a required consent not given: the delivery is kept (201), its evidence not given with a note", async () => {
    const c = await consenting("generic", { required: true, mapping: { newsletter: "consent" } });
    const leadId = await genericLead(c.token, { name: "Ada Lovelace", email: "ada@example.com", newsletter: false });
    const [evidence] = await evidenceOf(c.team.id, leadId);
    assert.equal(evidence!.status, "not_given");
    assert.equal(evidence!.note, REQUIRED_NOT_GIVEN);
    const given = await genericLead(c.token, { name: "Grace Hopper", email: "grace@example.com", newsletter: true });
    assert.equal((await evidenceOf(c.team.id, given))[0]!.note, null);
  });
});

describe("double opt-in on a connection", () => {
  const emailJobs = (teamId: string) => db().job.findMany({ where: { teamId, kind: "email", eventType: CONFIRMATION_EMAIL } });

  test("a delivery that gives consent is pending and its confirmation email queued; one that does not, none", async () => {
    const c = await consenting("generic", { doubleOptIn: true, mapping: { newsletter: "consent" } });
    const pending = await genericLead(c.token, { name: "Ada Lovelace", email: "ada@example.com", newsletter: "yes" });
    assert.equal((await evidenceOf(c.team.id, pending))[0]!.status, "pending");
    const jobs = await emailJobs(c.team.id);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]!.leadId, pending);
    const confirmation = await db().consentConfirmation.findFirst({ where: { leadId: pending } });
    assert.equal(confirmation!.emailKey, "ada@example.com");
    const declined = await genericLead(c.token, { name: "Grace Hopper", email: "grace@example.com", newsletter: "no" });
    assert.equal((await evidenceOf(c.team.id, declined))[0]!.status, "not_given");
    assert.equal((await emailJobs(c.team.id)).length, 1);
  });

  test('a suppressed address is kept, marked "withdrew consent before", never emailed', async () => {
    const c = await consenting("generic", { doubleOptIn: true, mapping: { newsletter: "consent" } });
    await db().$transaction((tx) =>
      suppressAddresses(tx, { teamId: c.team.id, emails: ["lise@example.com"], reason: "withdrawn", at: new Date() }),
    );
    const leadId = await genericLead(c.token, { name: "Lise Meitner", email: "Lise@example.com", newsletter: "yes" });
    const [mark] = await evidenceOf(c.team.id, leadId);
    assert.equal(mark!.status, "withdrawn_before");
    assert.equal(mark!.channel, "connection");
    assert.match(mark!.note!, /This submission: consent given \(double opt-in: no confirmation email sent\)\./);
    assert.equal((await emailJobs(c.team.id)).length, 0);
  });
});
