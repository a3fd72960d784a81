import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import fc from "fast-check";

// Consent the team can prove (issue 46, step 1; docs/consent.md), on a real database (SQLite,
// and PostgreSQL with TEST_DATABASE_URL): a web form's consent versions, the evidence each
// submission writes in its lead's transaction, the refusal of a required consent not given,
// the API's documented fields (which stay in extra_fields as sent), a repeat submission's
// evidence on the lead it joins, the export's columns, the lead.created payload and erasure.
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { answerFormPost } = await import("../intake/web-form-endpoint");
const { newForm, nextIp, SITE, solved } = await import("../web-forms/web-forms.fixtures");
const { setFormConsent, recordLeadConsent } = await import("./consent-changes");
const { listFormConsentVersions } = await import("./consent-version-store");
const { CONSENT_REQUIRED } = await import("./consent-evidence");
const { findLeadConsents } = await import("./lead-consent-store");
const { exportLeadBatches } = await import("../leads/lead-export-store");
const { EMPTY_FILTER } = await import("../leads/lead-filter");
const { exportCells, EXPORT_COLUMNS } = await import("../leads/export-leads");
const { parsePerson, runErasure } = await import("../leads/erase-person");
const { createTeam } = await import("../teams/team-store");
const { mergeLeads } = await import("../leads/merge-leads");
const { createEndpoint } = await import("../webhooks/webhook-endpoint-changes");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const UA = "Mozilla/5.0 (X11; Linux x86_64) ConsentTest/1.0";
const PAGE = `${SITE}/contact?from=ad`;
const MARKETING = {
  text: "I agree to receive marketing emails from Example Ltd.",
  purpose: "Marketing emails",
  policyUrl: null,
  required: false,
};

/** A browser's post of the form from its page on the team's site. */
async function postForm(formId: string, fields: Record<string, string>) {
  const headers = { "x-forwarded-for": nextIp(), origin: SITE, referer: PAGE, "user-agent": UA, accept: "application/json" };
  const body = new URLSearchParams({ ...fields, altcha: await solved(formId) });
  return answerFormPost(new Request(`http://127.0.0.1/api/forms/${formId}`, { method: "POST", headers, body }), formId);
}

async function consentForm(settings = MARKETING) {
  const { team, formId } = await newForm({ challenge: true });
  assert.equal(await setFormConsent({ teamId: team.id, formId, settings, actor: CLI_ACTOR }), true);
  const [version] = await listFormConsentVersions({ teamId: team.id, formId });
  return { team, formId, version: version! };
}

let keys = 0;
async function apiTeam() {
  const team = await createTeam({ slug: `consent-api-${++keys}`, name: "Consent API" });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  return { team, key };
}

async function createLead(key: { keyId: string; secret: string }, body: Record<string, unknown>) {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret, "user-agent": "client/2" },
    body: JSON.stringify(body),
  });
  const context = { requestId: `consent-${Math.random()}`, ip: "198.51.100.7", userAgent: "client/2" };
  return createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
}

const evidenceOf = (leadId: string) => db().leadConsent.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } });

describe("a web form's consent versions", () => {
  test("every edit makes a new version, the old ones are kept, the same text makes none, and turning it off keeps them all; audited", async () => {
    const { team, formId, version } = await consentForm();
    assert.equal(version.number, 1);
    await setFormConsent({ teamId: team.id, formId, settings: MARKETING, actor: CLI_ACTOR });
    await setFormConsent({ teamId: team.id, formId, settings: { ...MARKETING, text: "Send me news.", required: true }, actor: CLI_ACTOR });
    const versions = await listFormConsentVersions({ teamId: team.id, formId });
    assert.deepEqual(
      versions.map((v) => [v.number, v.text, v.required]),
      [
        [2, "Send me news.", true],
        [1, MARKETING.text, false],
      ],
    );
    const form = await db().webForm.findUniqueOrThrow({ where: { id: formId } });
    assert.equal(form.consentVersionId, versions[0]!.id);
    await setFormConsent({ teamId: team.id, formId, settings: null, actor: CLI_ACTOR });
    assert.equal((await db().webForm.findUniqueOrThrow({ where: { id: formId } })).consentVersionId, null);
    assert.equal((await listFormConsentVersions({ teamId: team.id, formId })).length, 2);
    const events = await db().auditEvent.findMany({ where: { teamId: team.id, action: "web_form.consent_set" } });
    assert.equal(events.length, 3);
    assert.equal(await setFormConsent({ teamId: "another-team", formId, settings: MARKETING, actor: CLI_ACTOR }), false);
  });

  test("a version that evidence names cannot be deleted, nor goes with its form", async () => {
    const { team, formId, version } = await consentForm();
    assert.equal((await postForm(formId, { name: "Ada Lovelace", consent: "yes", consent_version: version.id })).status, 201);
    await assert.rejects(db().consentVersion.delete({ where: { id: version.id } }));
    await db().webForm.delete({ where: { id: formId } });
    assert.equal(await db().consentVersion.count({ where: { id: version.id, teamId: team.id } }), 1);
  });
});

describe("evidence of a web form's submission, derived at intake", () => {
  test("the box ticked: given, the version (its exact text), time, address, user agent, page and channel; the fields stay in extra_fields as sent", async () => {
    const { team, formId, version } = await consentForm();
    const response = await postForm(formId, {
      name: "Ada Lovelace",
      email: "ada@example.com",
      consent: "yes",
      consent_version: version.id,
    });
    assert.equal(response.status, 201);
    const { lead_id: leadId } = (await response.json()) as { lead_id: string };
    const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
    assert.deepEqual(lead.extraFields, { consent: "yes", consent_version: version.id });
    const [evidence, ...more] = await evidenceOf(leadId);
    assert.equal(more.length, 0);
    assert.equal(evidence!.teamId, team.id);
    assert.equal(evidence!.submissionId, `sub_${leadId}`);
    assert.equal(evidence!.status, "given");
    assert.equal(evidence!.channel, "form");
    assert.equal(evidence!.versionId, version.id);
    assert.equal(evidence!.userAgent, UA);
    assert.equal(evidence!.pageUrl, PAGE);
    assert.match(evidence!.ip ?? "", /^203\.0\.113\./);
    // The receive time: when the submission reached the intake, just before its lead was written.
    assert.ok(lead.createdAt.getTime() - evidence!.consentAt.getTime() < 5_000 && evidence!.consentAt <= lead.createdAt);
    const [item] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(item!.version?.text, MARKETING.text);
  });

  test("a required consent not given refuses the post with 422 and the documented text, and stores nothing", async () => {
    const { team, formId, version } = await consentForm({ ...MARKETING, required: true });
    for (const fields of [{}, { consent: "no" }, { consent: "maybe" }] as Record<string, string>[]) {
      const response = await postForm(formId, { name: "Ada Lovelace", consent_version: version.id, ...fields });
      assert.equal(response.status, 422);
      assert.deepEqual(await response.json(), { success: false, error: CONSENT_REQUIRED, message: "Validation failed" });
    }
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 0);
    const refused = await db().apiRequest.count({ where: { teamId: team.id, status: 422 } });
    assert.equal(refused, 3);
  });

  test("an optional consent not given keeps the lead, with evidence that it was not given", async () => {
    const { formId, version } = await consentForm();
    const response = await postForm(formId, { name: "Grace Hopper", consent_version: version.id });
    assert.equal(response.status, 201);
    const { lead_id: leadId } = (await response.json()) as { lead_id: string };
    const [evidence] = await evidenceOf(leadId);
    assert.equal(evidence!.status, "not_given");
    assert.equal(evidence!.versionId, version.id);
  });

  test("the version the visitor's page showed is the one recorded, after an edit; another form's version is not", async () => {
    const { team, formId, version: first } = await consentForm();
    await setFormConsent({ teamId: team.id, formId, settings: { ...MARKETING, text: "New wording." }, actor: CLI_ACTOR });
    const other = await consentForm();
    const old = await postForm(formId, { name: "Old Page", consent: "on", consent_version: first.id });
    const foreign = await postForm(formId, { name: "Forged Version", consent: "on", consent_version: other.version.id });
    const [current] = await listFormConsentVersions({ teamId: team.id, formId });
    for (const [response, versionId] of [
      [old, first.id],
      [foreign, current!.id],
    ] as const) {
      const { lead_id: leadId } = (await response.json()) as { lead_id: string };
      assert.equal((await evidenceOf(leadId))[0]!.versionId, versionId);
    }
  });

  test("evidence commits with its submission: a replayed proof of work is refused and leaves no evidence", async () => {
    const { team, formId, version } = await consentForm();
    const altcha = await solved(formId);
    const send = () =>
      answerFormPost(
        new Request(`http://127.0.0.1/api/forms/${formId}`, {
          method: "POST",
          headers: { "x-forwarded-for": nextIp(), origin: SITE, accept: "application/json" },
          body: new URLSearchParams({ name: "Ada Lovelace", consent: "yes", consent_version: version.id, altcha }),
        }),
        formId,
      );
    assert.equal((await send()).status, 201);
    assert.equal((await send()).status, 403);
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 1);
  });

  test("a repeat submission joining the person's lead adds its evidence to that lead, with its own submission", async () => {
    const { team, formId, version } = await consentForm();
    const first = await postForm(formId, { name: "Ada Lovelace", email: "ada@example.com", consent_version: version.id });
    const again = await postForm(formId, { name: "Ada Lovelace", email: "ada@example.com", consent: "yes", consent_version: version.id });
    assert.equal(first.status, 201);
    assert.equal(again.status, 200);
    const { lead_id: leadId } = (await first.json()) as { lead_id: string };
    assert.equal(((await again.json()) as { lead_id: string }).lead_id, leadId);
    const evidence = await evidenceOf(leadId);
    assert.deepEqual(
      evidence.map((e) => e.status),
      ["not_given", "given"],
    );
    const submissions = await db().leadSubmission.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } });
    assert.deepEqual(
      evidence.map((e) => e.submissionId),
      submissions.map((s) => s.id),
    );
    const [latest] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(latest!.status, "given");
  });
});

describe("an API client's documented consent fields", () => {
  const cases: [unknown, string | null][] = [
    [true, "given"],
    ["yes", "given"],
    ["1", "given"],
    [1, "given"],
    ["ON", "given"],
    [" True ", "given"],
    [false, "not_given"],
    ["no", "not_given"],
    ["0", "not_given"],
    ["off", "not_given"],
    ["maybe", null],
    [["yes", "no"], null],
  ];
  for (const [value, status] of cases) {
    test(`consent ${JSON.stringify(value)}: ${status ?? "no evidence"}, the field kept as sent`, async () => {
      const { key } = await apiTeam();
      const response = await createLead(key, { name: "Ada Lovelace", consent: value });
      assert.equal(response.status, 201);
      const { lead_id: leadId } = (await response.json()) as { lead_id: string };
      const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
      assert.deepEqual((lead.extraFields as Record<string, unknown>).consent, value);
      const evidence = await evidenceOf(leadId);
      assert.deepEqual(
        evidence.map((e) => e.status),
        status ? [status] : [],
      );
    });
  }

  test("consent_text, consent_purpose and consent_at are recorded; a bad consent_at falls back to the receive time; no fields, no evidence", async () => {
    const { team, key } = await apiTeam();
    const sent = {
      name: "Ada Lovelace",
      consent: "yes",
      consent_text: "I agree to the newsletter.",
      consent_purpose: "Newsletter",
      consent_at: "2026-11-30T09:15:00+01:00",
      landing_page: "https://example.com/offer",
    };
    const { lead_id: leadId } = (await (await createLead(key, sent)).json()) as { lead_id: string };
    const [evidence] = await evidenceOf(leadId);
    assert.equal(evidence!.channel, "api");
    assert.equal(evidence!.text, sent.consent_text);
    assert.equal(evidence!.purpose, "Newsletter");
    assert.equal(evidence!.consentAt.toISOString(), "2026-11-30T08:15:00.000Z");
    assert.equal(evidence!.pageUrl, "https://example.com/offer");
    assert.equal(evidence!.ip, "198.51.100.7");
    const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
    const { name: _name, ...extra } = sent;
    assert.deepEqual(lead.extraFields, extra);

    const bad = (await (await createLead(key, { name: "Grace Hopper", consent: "no", consent_at: "yesterday" })).json()) as {
      lead_id: string;
    };
    const [fallback] = await evidenceOf(bad.lead_id);
    const badLead = await db().lead.findUniqueOrThrow({ where: { id: bad.lead_id } });
    assert.ok(badLead.createdAt.getTime() - fallback!.consentAt.getTime() < 5_000 && fallback!.consentAt <= badLead.createdAt);

    const plain = (await (await createLead(key, { name: "No Consent", consent_text: "orphan text" })).json()) as { lead_id: string };
    assert.equal((await evidenceOf(plain.lead_id)).length, 0);
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 2);
  });

  test("no generated value of the consent fields makes a 500 or leaves extra_fields (fast-check)", async () => {
    const { key } = await apiTeam();
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        "yes",
        "no",
        "on",
        "off",
        "1",
        "0",
        "true",
        "FALSE",
        "2026-11-30T09:15:00Z",
        "9999-12-31T23:59:59Z",
        "0000-01-01T00:00:00Z",
      ),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const fields = fc.record(
      { consent: value, consent_text: value, consent_purpose: value, consent_at: value, consent_version: value },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fields, async (sent) => {
        const response = await createLead(key, { name: "Generated Person", ...sent });
        assert.ok(response.status === 201 || response.status === 422, `status ${response.status}`);
        if (response.status !== 201) return;
        const { lead_id: leadId } = (await response.json()) as { lead_id: string };
        const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
        // As sent over JSON (-0 is sent as 0); an empty value is ignored (spec 2.2).
        const sentJson = JSON.parse(JSON.stringify(sent)) as Record<string, unknown>;
        const kept = Object.fromEntries(Object.entries(sentJson).filter(([, v]) => !(typeof v === "string" && v.trim() === "")));
        assert.deepEqual(lead.extraFields, kept);
      }),
      { numRuns: 40 },
    );
  });
});

describe("where the evidence goes", () => {
  test("the export's consent columns: the newest evidence's status, time, purpose and exact text; empty cells without evidence", async () => {
    const { team, formId, version } = await consentForm();
    const given = (await (await postForm(formId, { name: "Ada Lovelace", consent: "yes", consent_version: version.id })).json()) as {
      lead_id: string;
    };
    await setFormConsent({ teamId: team.id, formId, settings: null, actor: CLI_ACTOR });
    const none = (await (await postForm(formId, { name: "Grace Hopper" })).json()) as { lead_id: string };
    const rows = new Map<string, (string | null)[]>();
    for await (const batch of exportLeadBatches({ id: team.id, defaultPhoneCountry: null }, EMPTY_FILTER)) {
      for (const lead of batch) rows.set(lead.id, exportCells(lead));
    }
    const cell = (leadId: string, name: (typeof EXPORT_COLUMNS)[number]) => rows.get(leadId)![EXPORT_COLUMNS.indexOf(name)];
    const [evidence] = await evidenceOf(given.lead_id);
    assert.equal(cell(given.lead_id, "consent_status"), "given");
    assert.equal(cell(given.lead_id, "consent_at"), evidence!.consentAt.toISOString());
    assert.equal(cell(given.lead_id, "consent_purpose"), MARKETING.purpose);
    assert.equal(cell(given.lead_id, "consent_text"), MARKETING.text);
    for (const name of ["consent_status", "consent_at", "consent_purpose", "consent_text"] as const)
      assert.equal(cell(none.lead_id, name), null);
  });

  test("lead.created carries the consent (status, version, at); none when the submission carried none", async () => {
    const { team, formId, version } = await consentForm();
    await createEndpoint({
      teamId: team.id,
      url: "https://hooks.example.com/in",
      description: null,
      events: ["lead.created"],
      actor: CLI_ACTOR,
    });
    const given = (await (await postForm(formId, { name: "Ada Lovelace", consent: "yes", consent_version: version.id })).json()) as {
      lead_id: string;
    };
    const [evidence] = await evidenceOf(given.lead_id);
    const job = await db().job.findFirstOrThrow({ where: { leadId: given.lead_id, eventType: "lead.created" } });
    const payload = JSON.parse(job.payload) as { data: { lead: { consent: unknown } } };
    assert.deepEqual(payload.data.lead.consent, { status: "given", version: version.id, at: evidence!.consentAt.toISOString() });
  });

  test("recording consent given another way adds evidence with who recorded it, audited; another team's lead is not found", async () => {
    const { team, key } = await apiTeam();
    const { lead_id: leadId } = (await (await createLead(key, { name: "Phone Caller" })).json()) as { lead_id: string };
    const consent = {
      status: "given" as const,
      text: "Agreed to emails",
      purpose: "Marketing emails",
      note: "By phone",
      consentAt: new Date("2026-12-01T10:00:00Z"),
    };
    const actor = { userId: null, ip: "192.0.2.1", via: "web" as const };
    assert.ok(await recordLeadConsent({ teamId: team.id, leadId, consent, actor }));
    assert.equal(await recordLeadConsent({ teamId: "another-team", leadId, consent, actor }), null);
    const [item, ...more] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(more.length, 0);
    assert.equal(item!.channel, "manual");
    assert.equal(item!.note, "By phone");
    assert.equal(item!.submissionId, null);
    assert.equal(await db().auditEvent.count({ where: { teamId: team.id, action: "lead.consent_recorded", targetId: leadId } }), 1);
  });

  test("a merge moves the merged leads' evidence to the kept lead, with their submissions", async () => {
    const { team, key } = await apiTeam();
    const create = async (name: string, consent: string) =>
      ((await (await createLead(key, { name, consent })).json()) as { lead_id: string }).lead_id;
    const kept = await create("Ada Lovelace", "yes");
    const merged = await create("Ada King", "no");
    assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: kept, mergedIds: [merged], choices: {}, actor: CLI_ACTOR }), {
      ok: true,
    });
    const evidence = await findLeadConsents({ teamId: team.id, leadId: kept });
    assert.deepEqual(evidence.map((e) => e.submissionId).sort(), [`sub_${kept}`, `sub_${merged}`].sort());
  });

  test("erasing the person removes their evidence, on their leads and on submissions joined to other leads", async () => {
    const { team, formId, version } = await consentForm();
    const ada = (await (
      await postForm(formId, { name: "Ada Lovelace", email: "ada@example.com", consent: "yes", consent_version: version.id })
    ).json()) as {
      lead_id: string;
    };
    await recordLeadConsent({
      teamId: team.id,
      leadId: ada.lead_id,
      consent: { status: "given", text: "Yes", purpose: "Calls", note: "Paper form", consentAt: new Date() },
      actor: CLI_ACTOR,
    });
    const kept = (await (
      await postForm(formId, { name: "Grace Hopper", email: "grace@example.com", consent_version: version.id })
    ).json()) as {
      lead_id: string;
    };
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 3);
    const erasure = await runErasure({
      team: { id: team.id, defaultPhoneCountry: null },
      person: parsePerson("ada@example.com", { defaultPhoneCountry: null })!,
      confirmedIds: [ada.lead_id],
      actor: CLI_ACTOR,
    });
    assert.equal(erasure.leads, 1);
    const left = await db().leadConsent.findMany({ where: { teamId: team.id } });
    assert.deepEqual(
      left.map((e) => e.leadId),
      [kept.lead_id],
    );
  });
});
