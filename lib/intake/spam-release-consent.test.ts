import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Issue 46: a submission the spam checks quarantined, released with "Not spam", gets the
// consent evidence the intake derived when it arrived (docs/consent.md "Evidence per
// submission"): given or not, the channel's version of that time (not the one current at the
// release), the submission's time, IP address, user agent and page; and a channel with double
// opt-in ("now" mode) starts it: the lead is pending and the person is emailed, within the 24 h
// limit. On a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL).

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { db } = await import("../db/client");
const { actorOf, makeTeam } = await import("../leads/lead-ownership.fixtures");
const { releaseQuarantined } = await import("../spam/quarantine-release");
const { SPAM } = await import("./spam-lifecycle.fixtures");
const { post, SITE, store } = await import("../web-forms/web-forms.fixtures");
const { setFormConsent } = await import("../consent/consent-changes");
const { listFormConsentVersions } = await import("../consent/consent-version-store");
const { findLeadConsents } = await import("../consent/lead-consent-store");

mock.method(process.stderr, "write", () => true);

const UA = "Mozilla/5.0 (X11; Linux x86_64) ReleaseTest/1.0";
const PAGE = `${SITE}/contact`;
const SETTINGS = { text: "Send me the newsletter of Example Ltd.", purpose: "Newsletter", policyUrl: null, required: false };

/** A team's web form asking consent (double opt-in or not), its first version, and its owner. */
async function consentForm(doubleOptIn: boolean) {
  const { team, owner } = await makeTeam();
  const formId = await store.createWebForm({
    teamId: team.id,
    settings: { name: "Contact", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: false },
    createdById: null,
    actor: CLI_ACTOR,
  });
  assert.equal(await setFormConsent({ teamId: team.id, formId, settings: SETTINGS, doubleOptIn, actor: CLI_ACTOR }), true);
  const [version] = await listFormConsentVersions({ teamId: team.id, formId });
  return { team, owner, formId, version: version! };
}

/** Posts spam to the form as a browser would; the lead id it was answered with (quarantined). */
async function quarantinedPost(formId: string, fields: Record<string, string>): Promise<string> {
  const response = await post(formId, { ...SPAM, ...fields }, { ip: "203.0.113.77", referer: PAGE, userAgent: UA });
  assert.equal(response.status, 201);
  const { lead_id } = (await response.json()) as { lead_id: string };
  assert.equal(await db().quarantinedLead.count({ where: { id: lead_id } }), 1, "quarantined");
  return lead_id;
}

const confirmationEmails = (teamId: string) => db().consentConfirmation.count({ where: { teamId } });

describe('"Not spam" and consent', () => {
  test("the released lead has the evidence of its submission: its version of that time, time, IP, user agent, page; double opt-in starts", async () => {
    const { team, owner, formId, version } = await consentForm(true);
    const sent = Date.now();
    const id = await quarantinedPost(formId, { consent: "yes", consent_version: version.id });
    const arrived = (await db().quarantinedLead.findUniqueOrThrow({ where: { id } })).createdAt;
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 0, "no evidence while quarantined");
    assert.equal(await confirmationEmails(team.id), 0, "no email while quarantined");
    // The team edits the text meanwhile: the evidence keeps the version the person saw.
    assert.equal(
      await setFormConsent({
        teamId: team.id,
        formId,
        settings: { ...SETTINGS, text: "Offers too." },
        doubleOptIn: true,
        actor: CLI_ACTOR,
      }),
      true,
    );

    assert.deepEqual(await releaseQuarantined({ teamId: team.id, id, actor: actorOf(owner) }), { ok: true, leadId: id });
    const [evidence, ...more] = await findLeadConsents({ teamId: team.id, leadId: id });
    assert.equal(more.length, 0);
    assert.equal(evidence!.status, "pending", "double opt-in: pending until the person confirms");
    assert.equal(evidence!.channel, "form");
    assert.equal(evidence!.versionId, version.id, "the version of the submission's time");
    const at = evidence!.consentAt.getTime();
    assert.ok(at >= sent - 1_000 && at <= arrived.getTime(), "the submission's time (as received), not the release's");
    assert.equal(evidence!.ip, "203.0.113.77");
    assert.equal(evidence!.userAgent, UA);
    assert.equal(evidence!.pageUrl, PAGE);
    assert.ok(evidence!.submissionId, "named by the lead's submission");
    assert.equal(await confirmationEmails(team.id), 1, "the confirmation email is queued");
  });

  test("the 24 h limit holds: a person emailed within the day gets no second email from a release", async () => {
    const { team, owner, formId, version } = await consentForm(true);
    const first = await quarantinedPost(formId, { consent: "yes", consent_version: version.id });
    const second = await quarantinedPost(formId, { consent: "yes", consent_version: version.id, organization: "Again" });
    assert.ok((await releaseQuarantined({ teamId: team.id, id: first, actor: actorOf(owner) })).ok);
    assert.equal(await confirmationEmails(team.id), 1);
    assert.ok((await releaseQuarantined({ teamId: team.id, id: second, actor: actorOf(owner) })).ok);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: second }))[0]!.status, "pending");
    assert.equal(await confirmationEmails(team.id), 1, "at most one email a day");
  });

  test("without double opt-in: given or not given as the submission said, and no email", async () => {
    const { team, owner, formId, version } = await consentForm(false);
    const given = await quarantinedPost(formId, { consent: "yes", consent_version: version.id });
    const notGiven = await quarantinedPost(formId, { email: "y@mailinator.com", consent_version: version.id });
    for (const id of [given, notGiven]) assert.ok((await releaseQuarantined({ teamId: team.id, id, actor: actorOf(owner) })).ok);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: given }))[0]!.status, "given");
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: notGiven }))[0]!.status, "not_given");
    assert.equal(await confirmationEmails(team.id), 0);
  });
});
