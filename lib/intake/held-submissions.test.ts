import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, mock, test } from "node:test";
import { startSmtpSink } from "../notifications/smtp-sink.fixtures";

// "Create the lead only once confirmed" (issue 46; docs/consent.md), on a real database (SQLite,
// and PostgreSQL with TEST_DATABASE_URL) and a local SMTP sink, with the app's test clock: a
// held-mode form's submission makes no lead, only a sealed held row, a request-log line and the
// confirmation email; confirming creates the lead through the intake (lead.created, then
// lead.consent_changed; confirmed evidence of the confirming request), once even when two
// confirmations race; the limits (confirmed before, one email a day, suppressed); the expiry
// drops it and the form's request log says so; unsubscribe and erasure remove it; "now" mode
// is unchanged.

const received = await startSmtpSink();
const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "held-clock-")), "now");
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
const { setFormConsent } = await import("../consent/consent-changes");
const { listFormConsentVersions } = await import("../consent/consent-version-store");
const { findLeadConsents } = await import("../consent/lead-consent-store");
const { HELD_DROPPED } = await import("../consent/held-submissions");
const { HELD_NOTE } = await import("../request-log/request-log");
const { dropExpiredHeld } = await import("../maintenance/held-expiry");
const { parsePerson, runErasure } = await import("../leads/erase-person");
const { HELD_MESSAGE } = await import("./web-form-endpoint");
const { confirmHeldSubmissions, confirmPersonHeld } = await import("./confirm-held");
const { SITE, store: formStore } = await import("../web-forms/web-forms.fixtures");
const pages = await import("../consent/confirmation-page");

mock.method(process.stderr, "write", () => true);

const { linkIn, mailDelivery } = await import("../consent/confirmation-mail.fixtures");
/** Sends every due email; returns the messages the sink got meanwhile. */
const deliver = mailDelivery(received);

/** What the routes (app/api/consent/[team]/[token]/…) answer: thin handlers around confirmation-page.ts. */
const confirmPage = (link: string) => pages.confirmationPage(...teamAndToken(link));
const confirmPost = (link: string, ip = "192.0.2.44") =>
  pages.confirmationPost(browser(link, "POST", ip), ...teamAndToken(link), confirmHeldSubmissions, confirmPersonHeld);
const unsubscribePost = (link: string) => pages.unsubscribePost(browser(link, "POST"), ...teamAndToken(link));

const UA = "Mozilla/5.0 (X11; Linux x86_64) HeldTest/1.0";

function teamAndToken(link: string): [string, string] {
  const [team, token] = new URL(link).pathname.split("/").slice(3);
  return [decodeURIComponent(team!), token!];
}

const browser = (link: string, method: "GET" | "POST", ip = "192.0.2.44") =>
  new Request(link, { method, headers: { "user-agent": UA, "x-forwarded-for": ip } });

/** A team's web form asking consent with double opt-in, held ("only once confirmed") or not, and a webhook endpoint. */
async function heldForm(hold = true) {
  const { team, formId } = await newForm({ challenge: false });
  const settings = { text: "Send me the newsletter of Example Ltd.", purpose: "Newsletter", policyUrl: null, required: false };
  assert.equal(await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn: true, hold, actor: CLI_ACTOR }), true);
  const [version] = await listFormConsentVersions({ teamId: team.id, formId });
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/in",
    description: null,
    events: ["lead.created", "lead.consent_changed"],
    actor: CLI_ACTOR,
  });
  const fields = (name: string, email: string) => ({ name, email, consent: "yes", consent_version: version!.id });
  return { team, formId, fields };
}

/** Posts as a page's fetch does; returns the answer's body. */
async function submit(formId: string, fields: Record<string, string>) {
  const response = await post(formId, fields);
  assert.ok(response.status === 201 || response.status === 200, `answered as stored (${response.status})`);
  return (await response.json()) as { lead_id: string | null; message: string };
}

const leadCount = (teamId: string) => db().lead.count({ where: { teamId } });
const heldOf = (teamId: string) => db().heldSubmission.findMany({ where: { teamId } });
const formLog = (formId: string) => db().apiRequest.findMany({ where: { formId }, orderBy: { id: "asc" } });

describe("a held-mode form", () => {
  test("holds the submission sealed, logs it, emails the link; confirming creates the lead once, with both events in order", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    const answer = await submit(formId, fields("Ada Lovelace", "Ada@Example.com"));
    assert.deepEqual(answer, { success: true, lead_id: null, message: HELD_MESSAGE });
    assert.equal(await leadCount(team.id), 0, "no lead until confirmed");
    const [row, ...more] = await heldOf(team.id);
    assert.equal(more.length, 0);
    assert.equal(row!.channelKind, "form");
    assert.equal(row!.channelId, formId);
    assert.equal(row!.expiresAt.getTime() - row!.createdAt.getTime(), 100 * 3_600_000);
    // Strings with characters base64 never has (a space, "@", "."), so a random ciphertext cannot hold them.
    for (const clear of ["Ada Lovelace", "Ada@Example.com", "Example.com", "example.com", "Send me the newsletter"])
      assert.ok(!JSON.stringify(row).includes(clear), `${clear} is not in the row in clear`);
    const [logged] = await formLog(formId);
    assert.equal(logged!.status, 201);
    assert.equal(logged!.leadId, null);
    assert.equal(logged!.error, HELD_NOTE);

    const [mail, ...others] = await deliver();
    assert.equal(others.length, 0);
    assert.deepEqual(mail!.to, ["Ada@example.com"]);
    const link = linkIn(mail!.raw);
    assert.ok(mail!.headers.includes(`List-Unsubscribe: <${link}/unsubscribe>`));
    assert.equal((await confirmPage(link)).status, 200, "the page shows");
    assert.equal(await leadCount(team.id), 0, "a GET creates nothing (mail scanners)");

    setClock(2);
    const confirmed = await confirmPost(link);
    assert.equal(confirmed.status, 200);
    assert.match(await confirmed.text(), /your consent is confirmed/);
    const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id } });
    assert.equal(lead.email, "Ada@Example.com");
    assert.equal(lead.formId, formId);
    const evidence = await findLeadConsents({ teamId: team.id, leadId: lead.id });
    assert.deepEqual(
      evidence.map((item) => item.status),
      ["confirmed", "pending"],
    );
    assert.equal(evidence[0]!.ip, "192.0.2.44");
    assert.equal(evidence[0]!.userAgent, UA);
    assert.equal(evidence[0]!.consentAt.getTime(), now().getTime() + 1, "the confirming request's time (after the lead's own evidence)");
    assert.equal(evidence[1]!.consentAt.getTime(), START, "the submission's own evidence, as received");
    const events = await db().job.findMany({ where: { teamId: team.id, kind: "webhook" }, orderBy: { runAt: "asc" } }); // the dispatcher's order
    assert.deepEqual(
      events.map((job) => job.eventType),
      ["lead.created", "lead.consent_changed"],
    );
    assert.equal(await db().heldSubmission.count({ where: { teamId: team.id } }), 0, "the held row is gone");
    const confirmation = await db().consentConfirmation.findFirstOrThrow({ where: { leadId: lead.id } });
    assert.equal(confirmation.confirmedAt!.getTime(), now().getTime() + 1);
    assert.equal((await formLog(formId)).at(-1)!.leadId, lead.id, "the request log names the lead it created");

    assert.equal((await confirmPost(link)).status, 409, "reused: already confirmed, nothing changed");
    assert.equal(await leadCount(team.id), 1);
    assert.equal(await db().job.count({ where: { teamId: team.id, kind: "webhook" } }), 2);
  });

  test("two confirmations at once create one lead: one is thanked, the other told it was confirmed", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Grace Hopper", "grace@example.com"));
    const link = linkIn((await deliver())[0]!.raw);
    const answers = await Promise.all([confirmPost(link, "192.0.2.1"), confirmPost(link, "192.0.2.2"), confirmPost(link, "192.0.2.3")]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409]);
    assert.equal(await leadCount(team.id), 1);
    const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id } });
    assert.equal(await db().leadSubmission.count({ where: { leadId: lead.id } }), 1);
    assert.deepEqual(
      (await findLeadConsents({ teamId: team.id, leadId: lead.id })).map((item) => item.status),
      ["confirmed", "pending"],
    );
    assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.consent_changed" } }), 1);
  });

  test("the limits: within 24 h held without an email and created by the earlier link; confirmed before: a lead at once", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Mary Somerville", "mary@example.com"));
    setClock(1);
    await submit(formId, { ...fields("Mary Somerville", "mary@example.com"), organization: "Royal Society" });
    const mails = await deliver();
    assert.equal(mails.length, 1, "one email a day");
    assert.equal((await heldOf(team.id)).length, 2, "both held");
    setClock(3);
    assert.equal((await confirmPost(linkIn(mails[0]!.raw))).status, 200);
    const [lead, ...others] = await db().lead.findMany({ where: { teamId: team.id } });
    assert.equal(others.length, 0, "one lead: the second submission joined it (the form adds repeats)");
    assert.equal(await db().leadSubmission.count({ where: { leadId: lead!.id } }), 2, "both held submissions are created");
    assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.consent_changed" } }), 1, "confirmed once");
    assert.equal((await heldOf(team.id)).length, 0);

    setClock(50);
    const later = await submit(formId, fields("Mary Somerville", "mary@example.com"));
    assert.ok(later.lead_id, "confirmed before: created at once");
    assert.deepEqual(await deliver(), [], "and no email");
    assert.equal((await heldOf(team.id)).length, 0);
  });

  test("emailed for a 'now' form's lead within the day: the held submission gets no link, and confirming the lead's link creates it", async () => {
    setClock(0);
    const { team, formId: heldId, fields } = await heldForm();
    const nowId = await formStore.createWebForm({
      teamId: team.id,
      settings: { name: "Newsletter", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: false },
      createdById: null,
      actor: CLI_ACTOR,
    });
    const settings = { text: "Send me the newsletter of Example Ltd.", purpose: "Newsletter", policyUrl: null, required: false };
    assert.equal(await setFormConsent({ teamId: team.id, formId: nowId, settings, doubleOptIn: true, actor: CLI_ACTOR }), true);
    const [nowVersion] = await listFormConsentVersions({ teamId: team.id, formId: nowId });
    const first = await submit(nowId, { name: "Emmy Noether", email: "emmy@example.com", consent: "yes", consent_version: nowVersion!.id });
    assert.ok(first.lead_id, "the 'now' form creates its lead at once");
    setClock(1);
    const held = await submit(heldId, { ...fields("Emmy Noether", "Emmy@example.com"), organization: "Göttingen" });
    assert.equal(held.lead_id, null);
    const mails = await deliver();
    assert.equal(mails.length, 1, "one email a day: the 'now' lead's");
    assert.equal((await heldOf(team.id)).length, 1);
    setClock(3);
    assert.equal((await confirmPost(linkIn(mails[0]!.raw))).status, 200);
    assert.equal((await heldOf(team.id)).length, 0, "the held submission is created, not left to expire");
    assert.equal(await db().leadSubmission.count({ where: { lead: { teamId: team.id } } }), 2);
  });

  test("a suppressed address is kept as a lead marked 'withdrew consent before', never held nor emailed", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Emmy Noether", "emmy@example.com"));
    const link = linkIn((await deliver())[0]!.raw);
    const withdrawn = await unsubscribePost(`${link}/unsubscribe`);
    assert.equal(withdrawn.status, 200);
    assert.equal((await heldOf(team.id)).length, 0, "the person refused: their held submission is dropped");
    assert.equal((await formLog(formId)).at(-1)!.error, HELD_DROPPED.withdrawn);
    assert.equal(await db().consentSuppression.count({ where: { teamId: team.id, reason: "withdrawn" } }), 1);
    assert.equal((await confirmPost(link)).status, 404, "the link names nothing any more");

    setClock(30);
    const again = await submit(formId, fields("Emmy Noether", "EMMY@example.com"));
    assert.ok(again.lead_id, "kept as a lead");
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: again.lead_id }))[0]!.status, "withdrawn_before");
    assert.deepEqual(await deliver(), []);
    assert.equal((await heldOf(team.id)).length, 0);
  });

  test("the expiry drops it and the form's request log says so; before the job, the link answers 410", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Alan Turing", "alan@example.com"));
    const link = linkIn((await deliver())[0]!.raw);
    setClock(99);
    assert.equal((await dropExpiredHeld(now())).dropped, 0, "still valid");
    setClock(101);
    assert.equal((await confirmPage(link)).status, 410);
    assert.equal((await confirmPost(link)).status, 410, "expired: nothing created");
    // The job is the deployment's: another test's leftovers may expire with it.
    assert.ok((await dropExpiredHeld(now())).dropped >= 1);
    assert.equal((await heldOf(team.id)).length, 0);
    assert.equal(await leadCount(team.id), 0);
    const dropped = (await formLog(formId)).at(-1)!;
    assert.equal(dropped.status, 410);
    assert.equal(dropped.error, HELD_DROPPED.expired);
    assert.equal(dropped.ip, null, "no address in the drop's line");
    assert.equal((await confirmPost(link)).status, 404);
  });

  test("a held row left behind by a confirmation whose last step failed goes at expiry without a 'dropped' line: its lead exists", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Katherine Johnson", "katherine@example.com"));
    const [row] = await heldOf(team.id);
    // What the lead's transaction spends (held-submissions.ts heldUse), as if its row were not deleted after.
    await db().spentChallenge.create({ data: { id: row!.id, expiresAt: new Date(row!.expiresAt.getTime() + 86_400_000) } });
    const before = (await formLog(formId)).length;
    setClock(101);
    assert.ok((await dropExpiredHeld(now())).confirmed >= 1);
    assert.equal((await heldOf(team.id)).length, 0);
    assert.equal((await formLog(formId)).length, before, "no 'dropped' line");
  });

  test("erasing the person removes their held submissions, and deleting the form its own", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm();
    await submit(formId, fields("Ada Byron", "byron@example.com"));
    await submit(formId, fields("Someone Else", "else@example.com"));
    const erasure = await runErasure({
      team: { id: team.id, defaultPhoneCountry: null },
      person: parsePerson("BYRON@example.com", { defaultPhoneCountry: null })!,
      confirmedIds: [],
      actor: CLI_ACTOR,
    });
    assert.equal(erasure.heldSubmissions, 1);
    assert.equal((await heldOf(team.id)).length, 1, "only the person's");
    const { deleteWebForm } = await import("../web-forms/web-form-changes");
    assert.equal(await deleteWebForm({ teamId: team.id, formId, actor: CLI_ACTOR }), true);
    assert.equal((await heldOf(team.id)).length, 0);
  });

  test("'now' mode is unchanged: the lead is created at once, pending, and nothing is held", async () => {
    setClock(0);
    const { team, formId, fields } = await heldForm(false);
    const answer = await submit(formId, fields("Lise Meitner", "lise@example.com"));
    assert.ok(answer.lead_id);
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: answer.lead_id }))[0]!.status, "pending");
    assert.equal((await heldOf(team.id)).length, 0);
  });
});

describe("the setting", () => {
  test("saved and audited with the mode; turning consent off turns it off", async () => {
    const { team, formId } = await heldForm(false);
    const settings = { text: "Send me the newsletter of Example Ltd.", purpose: "Newsletter", policyUrl: null, required: false };
    await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn: true, hold: true, actor: CLI_ACTOR });
    const saved = await db().webForm.findUniqueOrThrow({ where: { id: formId } });
    assert.equal(saved.doubleOptInHold, true);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { teamId: team.id, action: "web_form.consent_set" },
      orderBy: { createdAt: "desc" },
    });
    assert.match(JSON.stringify(event.details), /once_confirmed/);
    await setFormConsent({ teamId: team.id, formId, settings: null, actor: CLI_ACTOR });
    assert.equal((await db().webForm.findUniqueOrThrow({ where: { id: formId } })).doubleOptInHold, false, "consent off: held off");
  });
});
