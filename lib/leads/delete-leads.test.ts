import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents, type AuditActor } from "../audit/audit-log";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { deleteLeadsById, deleteMatchingLeads } from "./delete-leads";
import { EMPTY_FILTER } from "./lead-filter";
import { countLeads, findLead } from "./lead-store";
import type { LeadInput } from "./parse-lead-input";

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: "203.0.113.7", via: "web" };
let teams = 0;
const makeTeam = () => createTeam({ slug: `delete-${++teams}`, name: `Delete ${teams}` });

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }): Promise<string> {
  const team = { id: teamId, defaultPhoneCountry: null };
  return (await createLead({ team, apiKeyId: null, input: { extraFields: {}, ...input } })).leadId;
}

test("deletes the given leads of the team only, audited with ids and a count and no personal data", async () => {
  const team = await makeTeam();
  const other = await makeTeam();
  const ada = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com", phone: "+447911123456" });
  const bob = await lead(team.id, { name: "Bob Byron" });
  const kept = await lead(team.id, { name: "Kept Lead" });
  const foreign = await lead(other.id, { name: "Foreign Lead" });

  assert.equal(await deleteLeadsById({ teamId: team.id, ids: [ada, bob, foreign, "CRM-LEAD-99999"], actor }), 2);
  assert.equal(await findLead({ id: ada, teamId: team.id }), null);
  assert.equal(await findLead({ id: bob, teamId: team.id }), null);
  assert.ok(await findLead({ id: kept, teamId: team.id }));
  assert.ok(await findLead({ id: foreign, teamId: other.id }), "another team's lead is never deleted");

  const events = await listAuditEvents(team.id);
  assert.deepEqual(
    events.map((e) => [e.action, e.ip, e.targetId, e.details]),
    [["lead.deleted", "203.0.113.7", null, { count: 2, ids: [ada, bob].join(",") }]],
  );
  const text = JSON.stringify(events);
  for (const personal of ["Ada", "ada@example.com", "7911"]) assert.ok(!text.includes(personal), personal);
  assert.deepEqual(await listAuditEvents(other.id), []);

  assert.equal(await deleteLeadsById({ teamId: team.id, ids: [ada], actor }), 0, "a lead already gone");
  assert.equal((await listAuditEvents(team.id)).length, 1, "deleting nothing records nothing");
});

test("one lead's deletion names it as the target", async () => {
  const team = await makeTeam();
  const id = await lead(team.id, { name: "Single" });
  assert.equal(await deleteLeadsById({ teamId: team.id, ids: [id], actor }), 1);
  const [event] = await listAuditEvents(team.id);
  assert.deepEqual([event!.action, event!.targetId, event!.details], ["lead.deleted", id, { count: 1, ids: id }]);
});

test("deletes every lead matching a filter when the confirmed count still holds", async () => {
  const team = await makeTeam();
  const spam = [];
  for (let i = 0; i < 3; i++) spam.push(await lead(team.id, { name: `Spam ${i}`, utm_campaign: "spam" }));
  const good = await lead(team.id, { name: "Good", utm_campaign: "launch" });
  const filter = { ...EMPTY_FILTER, utmCampaign: "spam" };
  const live = { id: team.id, defaultPhoneCountry: null };

  assert.deepEqual(await deleteMatchingLeads({ team: live, filter, expected: 2, actor }), {
    ok: false,
    error: "3 leads match now (not 2): reload the list and confirm again.",
  });
  assert.equal(await countLeads(team.id), 4, "a stale count deletes nothing");

  assert.deepEqual(await deleteMatchingLeads({ team: live, filter, expected: 3, actor }), { ok: true, count: 3 });
  assert.equal(await countLeads(team.id), 1);
  assert.ok(await findLead({ id: good, teamId: team.id }));
  const [event] = await listAuditEvents(team.id);
  assert.deepEqual(event!.details, { count: 3, ids: spam.join(","), matchingFilter: true });
  assert.ok(!JSON.stringify(event).includes("spam"), "the filter's values are not recorded");
});
