import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, mock, test } from "node:test";

// Withdrawal on the lead's page and the suppression list (issue 46, step 3; docs/consent.md
// "Withdrawal and the suppression list"), on a real database (SQLite, and PostgreSQL with
// TEST_DATABASE_URL): "Withdraw consent" records evidence with time and actor, audited, and
// sends lead.consent_changed; the address is kept only as a keyed hash; a later API
// submission, connection delivery or import row of it is kept and marked "withdrew consent
// before" (a web form's: double-opt-in.test.ts); an erasure
// keeps only the hash; the operator's purge takes it off.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { sendCreateLead } = await import("../intake/create-lead.fixtures");
const { makeTeam, run, upload } = await import("../imports/lead-import.fixtures");
const { exportLeadBatches } = await import("../leads/lead-export-store");
const { EMPTY_FILTER } = await import("../leads/lead-filter");
const { exportCells, EXPORT_COLUMNS } = await import("../leads/export-leads");
const { parsePerson, runErasure } = await import("../leads/erase-person");
const { createTeam } = await import("../teams/team-store");
const { createEndpoint } = await import("../webhooks/webhook-endpoint-changes");
const { purgeSuppression, withdrawLeadConsent } = await import("./consent-changes");
const { findLeadConsents } = await import("./lead-consent-store");
const { suppressionHash } = await import("./suppression-key");
const { suppressAddresses } = await import("./suppression-store");
const { connect, deliver, FULL_NAME, tallyBody, tallySignature } = await import("../intake/receive-delivery.fixtures");

mock.method(process.stderr, "write", () => true);

const ACTOR = { userId: null, ip: "192.0.2.1", via: "web" as const };

let teams = 0;
async function apiTeam() {
  const team = await createTeam({ slug: `suppression-${++teams}`, name: "Suppression" });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.com/in",
    description: null,
    events: ["lead.consent_changed"],
    actor: CLI_ACTOR,
  });
  return { team, key };
}

async function createLead(key: { keyId: string; secret: string }, body: Record<string, unknown>): Promise<string> {
  const response = await sendCreateLead(key, body);
  assert.ok(response.status === 201 || response.status === 200, `kept (${response.status})`);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

async function exportedStatus(teamId: string, leadId: string) {
  for await (const batch of exportLeadBatches({ id: teamId, defaultPhoneCountry: null }, EMPTY_FILTER))
    for (const lead of batch) if (lead.id === leadId) return exportCells(lead)[EXPORT_COLUMNS.indexOf("consent_status")];
  return undefined;
}

/** Every column of the team's suppression rows, as text. */
async function suppressionText(teamId: string): Promise<string> {
  return JSON.stringify(await db().consentSuppression.findMany({ where: { teamId } }));
}

describe("Withdraw consent on the lead's page", () => {
  test("records withdrawn evidence with time and member, audited, sends lead.consent_changed, and suppresses the address; once", async () => {
    const { team, key } = await apiTeam();
    const leadId = await createLead(key, {
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      consent: "yes",
      consent_text: "Emails from Example",
      consent_purpose: "Newsletter",
    });
    const withdrawn = await withdrawLeadConsent({ teamId: team.id, leadId, note: "By phone", actor: ACTOR });
    assert.equal(withdrawn?.result, "withdrawn");
    const [latest, first] = await findLeadConsents({ teamId: team.id, leadId });
    assert.equal(first!.status, "given");
    assert.equal(latest!.status, "withdrawn");
    assert.equal(latest!.channel, "manual");
    assert.equal(latest!.note, "By phone");
    assert.equal(latest!.text, "Emails from Example", "names what was withdrawn");
    assert.equal(latest!.purpose, "Newsletter");
    const audit = await db().auditEvent.findMany({ where: { teamId: team.id, action: "lead.consent_withdrawn", targetId: leadId } });
    assert.equal(audit.length, 1);
    assert.equal(JSON.stringify(audit[0]!.details), JSON.stringify({ consent_id: latest!.id }));
    const [job, ...more] = await db().job.findMany({ where: { teamId: team.id, eventType: "lead.consent_changed" } });
    assert.equal(more.length, 0);
    const payload = JSON.parse(job!.payload) as { data: { lead_id: string; consent: { status: string } } };
    assert.equal(payload.data.lead_id, leadId);
    assert.equal(payload.data.consent.status, "withdrawn");
    const [entry] = await db().consentSuppression.findMany({ where: { teamId: team.id } });
    assert.equal(entry!.reason, "withdrawn");
    assert.equal(entry!.emailHash, suppressionHash("ada@example.com"));

    assert.deepEqual(await withdrawLeadConsent({ teamId: team.id, leadId, note: null, actor: ACTOR }), { result: "withdrawn_already" });
    assert.equal(await withdrawLeadConsent({ teamId: "another-team", leadId, note: null, actor: ACTOR }), null);
    assert.equal(await db().leadConsent.count({ where: { leadId } }), 2);
    assert.equal(await db().job.count({ where: { teamId: team.id, eventType: "lead.consent_changed" } }), 1);
  });

  test("the hash is keyed: neither the address nor its plain SHA-256 is in the table", async () => {
    const { team, key } = await apiTeam();
    const leadId = await createLead(key, { name: "Grace Hopper", email: "grace@example.com" });
    await withdrawLeadConsent({ teamId: team.id, leadId, note: null, actor: ACTOR });
    const stored = await suppressionText(team.id);
    assert.ok(!stored.toLowerCase().includes("grace"), stored);
    assert.ok(!stored.includes(createHash("sha256").update("grace@example.com").digest("hex")), "not an unkeyed hash");
    assert.match(stored, new RegExp(suppressionHash("grace@example.com")));
  });
});

describe("a later submission or import of a suppressed address", () => {
  test("an API create_lead is kept and marked withdrew consent before (export too); another address is not; another team is not", async () => {
    const { team, key } = await apiTeam();
    const first = await createLead(key, { name: "Emmy Noether", email: "emmy@example.com", consent: "yes" });
    await withdrawLeadConsent({ teamId: team.id, leadId: first, note: null, actor: ACTOR });
    const again = await createLead(key, { name: "E. Noether", email: "  EMMY@example.com", phone: "+442071838750" });
    const [mark, ...rest] = await findLeadConsents({ teamId: team.id, leadId: again });
    assert.equal(rest.length, 0);
    assert.equal(mark!.status, "withdrawn_before");
    assert.equal(mark!.channel, "api");
    assert.match(mark!.note!, /withdrew consent on .*This submission: no consent fields\./);
    assert.equal(await exportedStatus(team.id, again), "withdrawn_before");
    const given = await createLead(key, { name: "Emmy N.", email: "emmy@example.com", consent: "yes", consent_text: "Yes please" });
    const [givenMark] = await findLeadConsents({ teamId: team.id, leadId: given });
    assert.equal(givenMark!.status, "withdrawn_before");
    assert.equal(givenMark!.text, "Yes please", "the submission's own evidence is kept under the mark");
    assert.match(givenMark!.note!, /This submission: consent given\./);

    const other = await createLead(key, { name: "Marie Curie", email: "marie@example.com" });
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: other })).length, 0);
    const { key: otherKey, team: otherTeam } = await apiTeam();
    const elsewhere = await createLead(otherKey, { name: "Emmy Noether", email: "emmy@example.com" });
    assert.equal((await findLeadConsents({ teamId: otherTeam.id, leadId: elsewhere })).length, 0, "the list is per team");
  });

  test("a form builder connection's delivery is kept and marked", async () => {
    const c = await connect("tally");
    await db().$transaction((tx) =>
      suppressAddresses(tx, { teamId: c.team.id, emails: ["Alice@example.com"], reason: "erased", at: new Date() }),
    );
    const body = tallyBody([FULL_NAME]);
    const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
    assert.equal(response.status, 201);
    const leadId = ((await response.json()) as { lead_id: string }).lead_id;
    const [mark] = await findLeadConsents({ teamId: c.team.id, leadId });
    assert.equal(mark!.status, "withdrawn_before");
    assert.equal(mark!.channel, "connection");
  });

  test("a CSV import's row of the address is created and marked; the others are not", async () => {
    const team = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site" });
    const first = await createLead(key, { name: "Lise Meitner", email: "lise@example.com" });
    await withdrawLeadConsent({ teamId: team.id, leadId: first, note: null, actor: ACTOR });
    const { record } = await upload(team.id, "name,email\nLise Meitner,LISE@example.com\nOtto Hahn,otto@example.com\n");
    const done = await run(record, { duplicates: "create" });
    assert.equal(done.createdCount, 2);
    const imported = await db().lead.findMany({ where: { teamId: team.id, importId: record.id }, select: { id: true, email: true } });
    const lise = imported.find((lead) => lead.email?.toLowerCase() === "lise@example.com")!;
    const otto = imported.find((lead) => lead.email === "otto@example.com")!;
    const [mark] = await findLeadConsents({ teamId: team.id, leadId: lise.id });
    assert.equal(mark!.status, "withdrawn_before");
    assert.equal(mark!.channel, "import");
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: otto.id })).length, 0);
  });
});

describe("erasure and the operator's purge", () => {
  test("an erasure removes the evidence and keeps only the keyed hash; a later submission is marked; the purge takes it off, audited without the address", async () => {
    const { team, key } = await apiTeam();
    const leadId = await createLead(key, { name: "Rosalind Franklin", email: "rosalind@example.com", consent: "yes" });
    const erasure = await runErasure({
      team: { id: team.id, defaultPhoneCountry: null },
      person: parsePerson("Rosalind@example.com", { defaultPhoneCountry: null })!,
      confirmedIds: [leadId],
      actor: CLI_ACTOR,
    });
    assert.equal(erasure.leads, 1);
    assert.equal(await db().leadConsent.count({ where: { teamId: team.id } }), 0, "the evidence is gone");
    const [entry, ...more] = await db().consentSuppression.findMany({ where: { teamId: team.id } });
    assert.equal(more.length, 0);
    assert.equal(entry!.reason, "erased");
    assert.ok(!(await suppressionText(team.id)).includes("rosalind"));

    const again = await createLead(key, { name: "R. Franklin", email: "rosalind@example.com" });
    const [mark] = await findLeadConsents({ teamId: team.id, leadId: again });
    assert.equal(mark!.status, "withdrawn_before");
    assert.match(mark!.note!, /was erased on/);

    assert.equal(await purgeSuppression({ teamId: team.id, email: "ROSALIND@example.com ", actor: CLI_ACTOR }), "erased");
    assert.equal(await purgeSuppression({ teamId: team.id, email: "rosalind@example.com", actor: CLI_ACTOR }), null);
    assert.equal(await db().consentSuppression.count({ where: { teamId: team.id } }), 0);
    const audit = await db().auditEvent.findMany({ where: { teamId: team.id, action: "consent.suppression_purged" } });
    assert.equal(audit.length, 1);
    assert.ok(!JSON.stringify(audit).includes("rosalind"));
    const later = await createLead(key, { name: "Rosalind F.", email: "rosalind@example.com" });
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: later })).length, 0);
  });
});

describe("Team.suppressionListUsed: the intake looks the list up only for a team that ever used it", () => {
  const used = async (teamId: string) =>
    (await db().team.findUniqueOrThrow({ where: { id: teamId }, select: { suppressionListUsed: true } })).suppressionListUsed;

  test("false for a new team; set by the list's first entry whoever writes it (plain SQL too), bumping intakeVersion; kept after a purge", async () => {
    const { team, key } = await apiTeam();
    assert.equal(await used(team.id), false);
    await createLead(key, { name: "Ada Byron", email: "ada@example.com" });
    const version = async () => (await db().team.findUniqueOrThrow({ where: { id: team.id } })).intakeVersion;
    const before = await version();
    await db().$executeRaw`INSERT INTO "ConsentSuppression" ("teamId", "emailHash", "reason", "createdAt")
      VALUES (${team.id}, ${suppressionHash("ada@example.com")}, 'erased', ${new Date()})`;
    assert.equal(await used(team.id), true);
    assert.equal(await version(), before + 1, "a cached key's team is read again on every instance");
    const marked = await createLead(key, { name: "Ada B.", email: "ADA@example.com" });
    assert.equal((await findLeadConsents({ teamId: team.id, leadId: marked }))[0]!.status, "withdrawn_before");
    await db().$transaction((tx) =>
      suppressAddresses(tx, { teamId: team.id, emails: ["b@example.com"], reason: "erased", at: new Date() }),
    );
    assert.equal(await version(), before + 1, "only the first entry writes the team row");
    assert.equal(await purgeSuppression({ teamId: team.id, email: "ada@example.com", actor: CLI_ACTOR }), "erased");
    assert.equal(await used(team.id), true, "never reset: a purge costs the team nothing but the lookup");
  });
});
