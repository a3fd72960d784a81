import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, listAuditEvents, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { addMember, createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { EMPTY_FILTER } from "./lead-filter";
import { listLeads } from "./lead-list-store";
import { assignLeads, setLeadStatus } from "./lead-ownership";
import { findLead } from "./lead-store";
import { combineExtraFields, mergeLeads } from "./merge-leads";
import type { LeadInput } from "./parse-lead-input";
import { addLeadNote } from "./lead-notes";
import { insertJobs } from "../jobs/job-store";
import { assignedEmailJob } from "../notifications/assignment-email";

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: null, via: "web" };
let teams = 0;
const makeTeam = () => createTeam({ slug: `merge-${++teams}`, name: `Merge ${teams}` });

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: null }, apiKeyId: null, input: { extraFields: {}, ...input } }))
    .leadId;
}

test("extra fields: one value stays, different values become a list without repeats", () => {
  assert.deepEqual(
    combineExtraFields([
      { extraFields: { same: "x", differs: "a", list: ["1", "2"], only: "o" } },
      { extraFields: { same: "x", differs: "b", list: ["2", "3"] } },
      { extraFields: { differs: "a" } },
    ]),
    { same: "x", differs: ["a", "b"], list: ["1", "2", "3"], only: "o" },
  );
});

test("merges with the newest non-empty values by default and the chosen ones where chosen", async () => {
  const team = await makeTeam();
  const survivor = await lead(team.id, {
    name: "Ada Lovelace",
    email: "ada@example.com",
    job_title: "Mathematician",
    extraFields: { interest: "engines" },
  });
  const older = await lead(team.id, {
    name: "Ada King",
    email: "ada@example.com",
    phone: "+447911123456",
    extraFields: { interest: "poetry" },
  });
  const newest = await lead(team.id, { name: "Augusta Ada", email: "ada@example.com", organization: "Analytical Engines" });
  const author = await db().user.create({ data: { email: `author-${team.id}@example.com`, passwordHash: "x" } });
  await addMember({ teamId: team.id, userId: author.id, role: "member" });
  assert.ok((await addLeadNote({ teamId: team.id, leadId: older, body: "Called her", actor: { ...actor, userId: author.id } })).ok);
  await insertJobs([assignedEmailJob({ teamId: team.id, userId: author.id, leadId: newest, at: new Date() })]);

  const result = await mergeLeads({
    teamId: team.id,
    survivorId: survivor,
    mergedIds: [older, newest],
    choices: { lastName: survivor },
    actor,
  });
  assert.deepEqual(result, { ok: true });
  assert.equal(await findLead({ id: older, teamId: team.id }), null);
  assert.equal(await findLead({ id: newest, teamId: team.id }), null);
  const merged = (await findLead({ id: survivor, teamId: team.id }))!;
  assert.equal(merged.firstName, "Augusta", "newest non-empty by default");
  assert.equal(merged.lastName, "Lovelace", "the chosen lead's value");
  assert.equal(merged.organization, "Analytical Engines");
  assert.equal(merged.jobTitle, "Mathematician", "the only non-empty value");
  assert.deepEqual([merged.phone, merged.phoneCountryCode, merged.phoneNational], ["+447911123456", "+44", "7911123456"]);
  assert.deepEqual(merged.extraFields, { interest: ["engines", "poetry"] });
  assert.deepEqual(merged.mergedLeadIds, [older, newest]);
  // Each lead's submissions are the kept lead's now, as they were (their ids, times and fields).
  assert.deepEqual(
    (await db().leadSubmission.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" } })).map((s) => [s.id, s.leadId]),
    [older, newest, survivor].map((id) => [`sub_${id}`, survivor]).sort(),
  );
  // So are their notes and the messages sent about them (their timeline).
  assert.deepEqual(
    (await db().leadNote.findMany({ where: { teamId: team.id } })).map((note) => [note.body, note.leadId]),
    [["Called her", survivor]],
  );
  assert.equal(await db().job.count({ where: { leadId: survivor } }), 1);
  // The search keys follow the kept name.
  assert.deepEqual(
    (await listLeads({ team, filter: { ...EMPTY_FILTER, query: "augusta" } })).leads.map((l) => l.id),
    [survivor],
  );

  const [event] = await listAuditEvents(team.id);
  assert.deepEqual([event!.action, event!.targetId, event!.details], ["lead.merged", survivor, { count: 2, ids: `${older},${newest}` }]);
  assert.ok(!JSON.stringify(event).includes("Ada"));
});

test("refuses a merge naming a lead that is gone or in another team, changing nothing", async () => {
  const team = await makeTeam();
  const other = await makeTeam();
  const a = await lead(team.id, { name: "A One", email: "a@example.com" });
  const b = await lead(team.id, { name: "B Two", email: "a@example.com" });
  const foreign = await lead(other.id, { name: "Foreign", email: "a@example.com" });
  const refused = await mergeLeads({ teamId: team.id, survivorId: a, mergedIds: [b, foreign], choices: {}, actor });
  assert.equal(refused.ok, false);
  assert.ok(await findLead({ id: b, teamId: team.id }));
  assert.ok(await findLead({ id: foreign, teamId: other.id }));
  assert.deepEqual(await listAuditEvents(team.id), []);
  const submissions = await db().leadSubmission.findMany({ where: { leadId: { in: [a, b, foreign] } }, orderBy: { id: "asc" } });
  assert.deepEqual(
    submissions.map((s) => [s.id, s.leadId]),
    [a, b, foreign].map((id) => [`sub_${id}`, id]).sort(),
  );
});

test("of two concurrent merges of the same leads exactly one succeeds and no lead is lost", async () => {
  for (let round = 0; round < 5; round++) {
    const team = await makeTeam();
    const x = await lead(team.id, { name: "X", email: "same@example.com" });
    const y = await lead(team.id, { name: "Y", email: "same@example.com" });
    const z = await lead(team.id, { name: "Z", email: "same@example.com" });
    // Opposite survivors: each merge deletes the other's survivor.
    const results = await Promise.all([
      mergeLeads({ teamId: team.id, survivorId: x, mergedIds: [y, z], choices: {}, actor }),
      mergeLeads({ teamId: team.id, survivorId: y, mergedIds: [x, z], choices: {}, actor }),
    ]);
    assert.equal(results.filter((r) => r.ok).length, 1, JSON.stringify(results));
    const left = (await listLeads({ team })).leads;
    assert.equal(left.length, 1);
    const winner = (await findLead({ id: left[0]!.id, teamId: team.id }))!;
    assert.deepEqual(
      [winner.id, ...(winner.mergedLeadIds as string[])].sort(),
      [x, y, z].sort(),
      "every lead is kept or recorded as merged",
    );
    assert.equal(await db().leadSubmission.count({ where: { leadId: winner.id } }), 3, "and its submission is the kept lead's");
    assert.equal((await listAuditEvents(team.id)).length, 1);
  }
});

test("the kept lead keeps its own owner, status and first contact, whatever the merged leads had", async () => {
  const team = await makeTeam();
  const [kept, taken] = await Promise.all(
    ["kept", "taken"].map((name) => db().user.create({ data: { email: `${name}-${team.slug}@example.com`, passwordHash: "x" } })),
  );
  for (const user of [kept!, taken!]) await addMember({ teamId: team.id, userId: user.id, role: "member" });
  const survivor = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com" });
  const newer = await lead(team.id, { name: "Ada King", email: "ada@example.com" });
  const unowned = await lead(team.id, { name: "Ada", email: "ada@example.com" });
  await assignLeads({ teamId: team.id, leadIds: [survivor], ownerId: kept!.id, actor: CLI_ACTOR });
  await assignLeads({ teamId: team.id, leadIds: [newer], ownerId: taken!.id, actor: CLI_ACTOR });
  await setLeadStatus({ teamId: team.id, leadIds: [newer], status: "qualified", actor: CLI_ACTOR });
  const before = await db().lead.findUniqueOrThrow({ where: { id: survivor } });

  assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: survivor, mergedIds: [newer, unowned], choices: {}, actor }), {
    ok: true,
  });
  const after = await db().lead.findUniqueOrThrow({ where: { id: survivor } });
  assert.deepEqual([after.status, after.ownerId, after.assignedAt, after.firstContactedAt], ["new", kept!.id, before.assignedAt, null]);
  // A merge is no status or owner change.
  assert.equal(await db().auditEvent.count({ where: { teamId: team.id, action: "lead.assigned", targetId: survivor } }), 1);
});
