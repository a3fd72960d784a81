import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import { startSmtpSink } from "../notifications/smtp-sink.fixtures";
import { useHourClock } from "../../test/support/test-clock";

// "Create the lead only once confirmed" on a form builder's connection (issue 46; docs/consent.md
// "Connections"), on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL), a local
// SMTP sink and the app's test clock: a delivery that gives consent is answered as usual and
// held (no lead; the connection's log says "held"), the person is emailed; confirming creates
// exactly one lead through the connection's intake (the connection as its source, the
// delivery's evidence, its log row naming the lead); the expiry, the person's erasure and the
// connection's deletion remove held rows, the log saying so without an address.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const received = await startSmtpSink();
/** The app's clock, moved to `hours` after the test's start by setClock. */
const { START, setClock } = useHourClock("held-deliveries");

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR, connect, db, deliver, changes } = await import("./receive-delivery.fixtures");
const { now } = await import("../time/clock");
const { setChannelConsent } = await import("../consent/consent-changes");
const { listConsentVersions } = await import("../consent/consent-version-store");
const { findLeadConsents } = await import("../consent/lead-consent-store");
const { suppressAddresses } = await import("../consent/suppression-store");
const { HELD_DROPPED } = await import("../consent/held-submissions");
const { HELD_NOTE } = await import("../request-log/request-log");
const { dropExpiredHeld } = await import("../maintenance/held-expiry");
const { parsePerson, runErasure } = await import("../leads/erase-person");
const { HELD_DELIVERY_MESSAGE } = await import("./receive-delivery");
const { confirmHeldSubmissions, confirmPersonHeld } = await import("./confirm-held");
const { linkIn, mailDelivery } = await import("../consent/confirmation-mail.fixtures");
const pages = await import("../consent/confirmation-page");

mock.method(process.stderr, "write", () => true);

const sendMail = mailDelivery(received);
const UA = "Mozilla/5.0 (X11; Linux x86_64) HeldDeliveryTest/1.0";
const confirmPost = (link: string) => {
  const [team, token] = new URL(link).pathname.split("/").slice(3);
  const request = new Request(link, { method: "POST", headers: { "user-agent": UA, "x-forwarded-for": "192.0.2.55" } });
  return pages.confirmationPost(request, decodeURIComponent(team!), token!, confirmHeldSubmissions, confirmPersonHeld);
};

/** A Generic JSON connection recording consent (its `newsletter` answer) with double opt-in, held or not. */
async function heldConnection(hold = true) {
  const c = await connect("generic");
  const channel = { kind: "connection", id: c.id } as const;
  const settings = { text: "Send me Example Ltd.'s newsletter.", purpose: "Newsletter", policyUrl: null, required: false };
  assert.equal(await setChannelConsent({ teamId: c.team.id, channel, settings, doubleOptIn: true, hold, actor: CLI_ACTOR }), true);
  assert.equal(
    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { newsletter: "consent" }, actor: CLI_ACTOR }),
    true,
  );
  const [version] = await listConsentVersions({ teamId: c.team.id, channel });
  return { ...c, version: version! };
}

const body = (name: string, email: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, email, newsletter: "yes", ...extra });

const leadsOf = (teamId: string) => db().lead.findMany({ where: { teamId } });
const heldOf = (teamId: string) => db().heldSubmission.findMany({ where: { teamId } });
const logOf = (connectionId: string) => db().connectionDelivery.findMany({ where: { connectionId }, orderBy: { createdAt: "asc" } });

describe("a held-mode connection", () => {
  test("answers the builder as usual, holds the delivery with a 'held' log row and emails the person; a retry holds nothing more", async () => {
    setClock(0);
    const c = await heldConnection();
    const response = await deliver(c.token, body("Ada Lovelace", "ada@example.com"));
    assert.equal(response.status, 201, "the builder's usual success");
    assert.deepEqual(await response.json(), { success: true, lead_id: null, message: HELD_DELIVERY_MESSAGE });
    assert.equal((await leadsOf(c.team.id)).length, 0, "no lead until confirmed");
    const [row, ...more] = await heldOf(c.team.id);
    assert.equal(more.length, 0);
    assert.equal(row!.channelKind, "connection");
    assert.equal(row!.channelId, c.id);
    for (const clear of ["Ada Lovelace", "ada@example.com"]) assert.ok(!JSON.stringify(row).includes(clear), `${clear} sealed`);
    const [logged, ...others] = await logOf(c.id);
    assert.equal(others.length, 0);
    assert.equal(logged!.outcome, "held");
    assert.equal(logged!.status, 201);
    assert.equal(logged!.leadId, null);
    assert.equal(logged!.error, HELD_NOTE);
    assert.equal(logged!.payload, null, "no body kept in clear");

    const retry = await deliver(c.token, body("Ada Lovelace", "ada@example.com"));
    assert.equal(retry.status, 201);
    assert.equal((await heldOf(c.team.id)).length, 1, "the builder's retry is held once");
    assert.equal((await logOf(c.id))[0]!.attempts, 2);
    const mails = await sendMail();
    assert.equal(mails.length, 1, "one email");
    assert.deepEqual(mails[0]!.to, ["ada@example.com"]);
  });

  test("confirming creates exactly one lead with the connection as source and its evidence; the log row names it", async () => {
    setClock(0);
    const c = await heldConnection();
    assert.equal((await deliver(c.token, body("Grace Hopper", "grace@example.com", { company: "Navy" }))).status, 201);
    const link = linkIn((await sendMail())[0]!.raw);
    setClock(2);
    const answers = await Promise.all([confirmPost(link), confirmPost(link)]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0, "exactly one lead");
    assert.equal(lead!.connectionId, c.id, "the connection is its source");
    assert.equal(lead!.formId, null);
    assert.equal(lead!.email, "grace@example.com");
    const evidence = await findLeadConsents({ teamId: c.team.id, leadId: lead!.id });
    assert.deepEqual(
      evidence.map((item) => item.status),
      ["confirmed", "pending"],
    );
    const pending = evidence.find((item) => item.status === "pending")!;
    assert.equal(pending.channel, "connection");
    assert.equal(pending.versionId, c.version.id);
    assert.equal(pending.consentAt.getTime(), START, "the delivery's own time");
    assert.equal(pending.ip, null, "the builder's server is not the person");
    const confirmed = evidence.find((item) => item.status === "confirmed")!;
    assert.equal(confirmed.ip, "192.0.2.55");
    assert.equal(confirmed.userAgent, UA);
    const [logged, ...more] = await logOf(c.id);
    assert.equal(more.length, 0, "the held row became the lead's");
    assert.equal(logged!.outcome, "created");
    assert.equal(logged!.leadId, lead!.id);
    assert.equal(await db().heldSubmission.count({ where: { teamId: c.team.id } }), 0);

    const repeat = await deliver(c.token, body("Grace Hopper", "grace@example.com", { company: "Navy" }));
    assert.equal(repeat.status, 200, "the builder's retry after: the lead it made");
    assert.equal(((await repeat.json()) as { lead_id: string }).lead_id, lead!.id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
  });

  test("the expiry drops it: the log row says so (410, no address), no lead", async () => {
    setClock(0);
    const c = await heldConnection();
    await deliver(c.token, body("Alan Turing", "alan@example.com"));
    await sendMail();
    setClock(101);
    assert.ok((await dropExpiredHeld(now())).dropped >= 1);
    assert.equal((await heldOf(c.team.id)).length, 0);
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [logged, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.equal(logged!.outcome, "refused");
    assert.equal(logged!.status, 410);
    assert.equal(logged!.error, HELD_DROPPED.expired);
    assert.ok(!JSON.stringify(logged).includes("alan@example.com"), "no address in the log");
  });

  test("deleting the connection removes its held rows; erasing the person theirs, the log saying so", async () => {
    setClock(0);
    const c = await heldConnection();
    await deliver(c.token, body("Ada Byron", "byron@example.com"));
    await deliver(c.token, body("Someone Else", "else@example.com"));
    const erasure = await runErasure({
      team: { id: c.team.id, defaultPhoneCountry: null },
      person: parsePerson("BYRON@example.com", { defaultPhoneCountry: null })!,
      confirmedIds: [],
      actor: CLI_ACTOR,
    });
    assert.equal(erasure.heldSubmissions, 1);
    assert.equal((await heldOf(c.team.id)).length, 1, "only the person's");
    assert.deepEqual((await logOf(c.id)).map((row) => [row.outcome, row.error]).sort(), [
      ["held", HELD_NOTE],
      ["refused", HELD_DROPPED.erased],
    ]);
    assert.equal(await changes.deleteConnection({ teamId: c.team.id, id: c.id, actor: CLI_ACTOR }), true);
    assert.equal((await heldOf(c.team.id)).length, 0);
  });

  test("a suppressed address: a lead now, 'withdrew consent before'; confirmed before: a lead at once, no email", async () => {
    setClock(0);
    const c = await heldConnection();
    await db().$transaction((tx) =>
      suppressAddresses(tx, { teamId: c.team.id, emails: ["emmy@example.com"], reason: "withdrawn", at: now() }),
    );
    const suppressed = await deliver(c.token, body("Emmy Noether", "Emmy@example.com"));
    assert.equal(suppressed.status, 201);
    const leadId = ((await suppressed.json()) as { lead_id: string }).lead_id;
    assert.ok(leadId);
    assert.equal((await findLeadConsents({ teamId: c.team.id, leadId }))[0]!.status, "withdrawn_before");

    await deliver(c.token, body("Lise Meitner", "lise@example.com"));
    setClock(1);
    const mail = (await sendMail()).find((message) => message.to.includes("lise@example.com"));
    assert.equal((await confirmPost(linkIn(mail!.raw))).status, 200);
    setClock(30);
    const again = await deliver(c.token, body("Lise Meitner", "lise@example.com", { note: "second" }));
    assert.ok(((await again.json()) as { lead_id: string | null }).lead_id, "confirmed before: created at once");
    assert.deepEqual(await sendMail(), []);
    assert.equal((await heldOf(c.team.id)).length, 0);
  });

  test("'now' mode is unchanged, and the mode is saved and audited", async () => {
    setClock(0);
    const c = await heldConnection(false);
    const response = await deliver(c.token, body("Marie Curie", "marie@example.com"));
    const leadId = ((await response.json()) as { lead_id: string }).lead_id;
    assert.ok(leadId);
    assert.equal((await findLeadConsents({ teamId: c.team.id, leadId }))[0]!.status, "pending");
    assert.equal((await heldOf(c.team.id)).length, 0);
    const settings = { text: "Send me Example Ltd.'s newsletter.", purpose: "Newsletter", policyUrl: null, required: false };
    const channel = { kind: "connection", id: c.id } as const;
    await setChannelConsent({ teamId: c.team.id, channel, settings, doubleOptIn: true, hold: true, actor: CLI_ACTOR });
    assert.equal((await db().connection.findUniqueOrThrow({ where: { id: c.id } })).doubleOptInHold, true);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { teamId: c.team.id, action: "connection.consent_set" },
      orderBy: { createdAt: "desc" },
    });
    assert.match(JSON.stringify(event.details), /once_confirmed/);
  });
});
