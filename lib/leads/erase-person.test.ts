import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { recordRequest } from "../request-log/request-log-store";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { findPersonRecords, leadsOfPerson, parsePerson, runErasure } from "./erase-person";
import { findLead } from "./lead-store";
import type { LeadInput } from "./parse-lead-input";

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: null, via: "web" };
const team = await createTeam({ slug: "erase", name: "Erase", defaultPhoneCountry: "GB" });
const other = await createTeam({ slug: "erase-other", name: "Other" });

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }, country: string | null = "GB"): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: country }, apiKeyId: null, input: { extraFields: {}, ...input } }))
    .leadId;
}

async function storedResponse(key: string, leadId: string) {
  const now = new Date();
  await db().idempotencyRecord.create({
    data: {
      apiKeyId: "k".repeat(20),
      key,
      fingerprint: "f",
      token: "t",
      lockedAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
      responseStatus: 201,
      responseBody: JSON.stringify({ success: true, lead_id: leadId, message: "Lead created successfully" }),
    },
  });
}

test("reads the person as a lower-cased email or a number in the team's country", () => {
  assert.deepEqual(parsePerson(" Ada@Example.COM ", team), { email: "ada@example.com", phone: null, typed: "Ada@Example.COM" });
  assert.deepEqual(parsePerson("07911 123456", team), { email: null, phone: "+447911123456", typed: "07911 123456" });
  assert.deepEqual(parsePerson("+44 7911 123456", other), { email: null, phone: "+447911123456", typed: "+44 7911 123456" });
  assert.equal(parsePerson("07911 123456", other), null, "no default country: a plain number cannot be read");
  assert.equal(parsePerson("hello", team), null);
  assert.equal(parsePerson("  ", team), null);
});

test("erases the person's leads and their duplicates with what the request log and stored responses hold of them", async () => {
  const byEmail = await lead(team.id, { name: "Ada Lovelace", email: "ADA@example.com", phone: "+447911123456" });
  const byMobile = await lead(team.id, { name: "Ada Byron", mobile_no: "07911 123456" });
  const duplicateOfDuplicate = await lead(team.id, { name: "Augusta", phone: "+447911123456", email: "augusta@example.com" });
  const unrelated = await lead(team.id, { name: "Charles Babbage", email: "charles@example.com" });
  const otherTeams = await lead(other.id, { name: "Ada Elsewhere", email: "ada@example.com" });

  const person = parsePerson("ada@example.com", team)!;
  const found = await leadsOfPerson(team, person);
  assert.deepEqual(
    found.map((l) => [l.id, l.reason]),
    [
      [duplicateOfDuplicate, "duplicate"],
      [byMobile, "duplicate"],
      [byEmail, "email"],
    ],
  );

  for (const [leadId, key] of [
    [byEmail, "k1"],
    [unrelated, "k2"],
    [byMobile, "k3"],
  ] as const) {
    await recordRequest({ teamId: team.id, apiKeyId: "k".repeat(20), status: 201, leadId, ip: "198.51.100.1", encoding: "json" });
    await storedResponse(key, leadId);
  }
  await recordRequest({
    teamId: team.id,
    apiKeyId: "k".repeat(20),
    status: 400,
    error: "Invalid email address: ADA@example.com.",
    ip: "198.51.100.1",
    encoding: "json",
  });
  await recordRequest({
    teamId: other.id,
    apiKeyId: "k".repeat(20),
    status: 201,
    leadId: otherTeams,
    ip: "198.51.100.1",
    encoding: "json",
  });

  // An id the admin did not see (the unrelated lead) is never erased, even if sent.
  const { leads: count } = await runErasure({
    team,
    person,
    confirmedIds: [byEmail, byMobile, duplicateOfDuplicate, unrelated, otherTeams],
    actor,
  });
  assert.equal(count, 3);
  for (const id of [byEmail, byMobile, duplicateOfDuplicate]) assert.equal(await findLead({ id, teamId: team.id }), null);
  assert.ok(await findLead({ id: unrelated, teamId: team.id }));
  assert.ok(await findLead({ id: otherTeams, teamId: other.id }), "another team's lead with the same email stays");

  const log = await db().apiRequest.findMany({ select: { leadId: true, error: true }, orderBy: { id: "asc" } });
  assert.deepEqual(log, [
    { leadId: unrelated, error: null },
    { leadId: otherTeams, error: null },
  ]);
  assert.deepEqual(
    (await db().idempotencyRecord.findMany({ select: { key: true } })).map((r) => r.key),
    ["k2"],
  );

  const [event] = await listAuditEvents(team.id);
  assert.equal(event!.action, "lead.erased");
  assert.equal(event!.details!.count, 3);
  assert.ok(!JSON.stringify(event).toLowerCase().includes("ada"), "the audit event does not name the person");
});

test("a stored response is matched by the whole lead id (CRM-LEAD-10000 is not CRM-LEAD-100000)", async () => {
  const short = await lead(team.id, { name: "Short", email: "short@example.com" });
  await storedResponse("long", `${short}0`);
  await storedResponse("short", short);
  await runErasure({ team, person: parsePerson("short@example.com", team)!, confirmedIds: [short], actor });
  assert.deepEqual(
    (await db().idempotencyRecord.findMany({ where: { key: { in: ["long", "short"] } }, select: { key: true } })).map((r) => r.key),
    ["long"],
  );
});

test("a person's submission kept on another lead (joined by a number, under another email) is erased; the lead and its own submission stay", async () => {
  const first = await createLead({
    team: { id: team.id, defaultPhoneCountry: "GB" },
    apiKeyId: null,
    input: { extraFields: {}, name: "Grace Hopper", email: "grace@example.com", phone: "+447911000111" },
  });
  const since = new Date(Date.now() - 86_400_000);
  const joined = await createLead({
    team: { id: team.id, defaultPhoneCountry: "GB" },
    apiKeyId: null,
    input: { extraFields: { note: "Zoë here" }, name: "Zoë Person", email: "Zoe@Example.com", phone: "07911 000111" },
    repeat: { since },
  });
  assert.deepEqual([joined.added, joined.leadId], [true, first.leadId]);
  const unrelated = await lead(team.id, { name: "Someone", email: "someone@example.com", extraFields: { ref: "zoe@example.co" } });

  const person = parsePerson("zoe@example.com", team)!;
  assert.deepEqual(await leadsOfPerson(team, person), [], "no lead of hers: the lead kept Grace's email");
  const { records } = await findPersonRecords(team, person);
  assert.equal(records.submissions, 1);
  const erasure = await runErasure({ team, person, confirmedIds: [], actor });
  assert.equal(erasure.submissions, 1);
  assert.equal(erasure.leads, 0);
  const left = await db().leadSubmission.findMany({ where: { leadId: first.leadId } });
  assert.deepEqual(
    left.map((s) => s.id),
    [`sub_${first.leadId}`],
    "the lead's own first submission stays",
  );
  assert.ok(await findLead({ id: first.leadId, teamId: team.id }));
  assert.equal(await db().leadSubmission.count({ where: { leadId: unrelated } }), 1, "a near miss is not the person");
  const [event] = await listAuditEvents(team.id, { limit: 1 });
  assert.equal(event!.action, "lead.erased");
  assert.equal((event!.details as { submissions: number }).submissions, 1);
  assert.doesNotMatch(JSON.stringify(event), /zo[eë]/i);
});

test("a person's submissions in the spam quarantine are found and erased, by their email or a number in any field; a near miss stays", async () => {
  const quarantine = { score: 10, reasons: [{ code: "link_in_name", field: "name", points: 10 }], ip: "203.0.113.5" };
  const spam = (input: Omit<Parameters<typeof createLead>[0]["input"], "extraFields"> & { extraFields?: Record<string, string> }) =>
    createLead({ team: { id: team.id, defaultPhoneCountry: "GB" }, apiKeyId: null, input: { extraFields: {}, ...input }, quarantine });
  const byEmail = await createLead({
    team: { id: team.id, defaultPhoneCountry: "GB" },
    apiKeyId: null,
    input: { extraFields: {}, name: "Quinn http://x.example", email: "Quinn@Example.com" },
    requestLog: { apiKeyId: null, formId: null, ip: "203.0.113.5", encoding: "json" },
    quarantine,
  });
  assert.equal(await db().apiRequest.count({ where: { leadId: byEmail.leadId } }), 1);
  const byNumber = await spam({ name: "Other http://x.example", extraFields: { callback: "+44 7911 000222" } });
  const nearMiss = await spam({ name: "Near http://x.example", email: "quinn@example.co" });
  assert.ok(byEmail.quarantined && byNumber.quarantined && nearMiss.quarantined);

  // A release put the address on the allow list; a report put another's on the block list.
  const { addSpamListEntries } = await import("../spam/spam-list-store");
  await db().$transaction((tx) =>
    addSpamListEntries(
      tx,
      team.id,
      [
        { list: "allow_email", value: "quinn@example.com" },
        { list: "allow_email", value: "quinn@example.co" },
        { list: "blocked_email", value: "quinn@example.com" },
      ],
      null,
    ),
  );
  const person = parsePerson("quinn@example.com", team)!;
  assert.equal((await findPersonRecords(team, person)).records.quarantined, 1);
  const erased = await runErasure({ team, person, confirmedIds: [], actor });
  assert.deepEqual([erased.quarantined, erased.requestLogRows], [1, 1], "with its request-log row (its IP address)");
  assert.equal(await db().apiRequest.count({ where: { leadId: byEmail.leadId } }), 0);
  assert.deepEqual(
    (await db().spamListEntry.findMany({ where: { teamId: team.id }, orderBy: { list: "asc" } })).map((e) => [e.list, e.value]),
    [
      ["allow_email", "quinn@example.co"],
      ["blocked_email", "quinn@example.com"],
    ],
    "their address leaves the allow list; a block stays",
  );
  const byPhone = parsePerson("07911 000222", team)!;
  assert.equal((await runErasure({ team, person: byPhone, confirmedIds: [], actor })).quarantined, 1);
  assert.deepEqual(
    (await db().quarantinedLead.findMany({ where: { teamId: team.id } })).map((row) => row.id),
    [nearMiss.leadId],
  );
  const [event] = await listAuditEvents(team.id, { limit: 1 });
  assert.equal((event!.details as { quarantined: number }).quarantined, 1);
  assert.doesNotMatch(JSON.stringify(event), /7911/);
});
