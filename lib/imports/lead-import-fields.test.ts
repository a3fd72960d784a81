import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { exportLeadsCsv } from "../leads/export-leads";
import { EMPTY_FILTER } from "../leads/lead-filter";
import type { LeadInput } from "../leads/parse-lead-input";
import { addLeadSource } from "../teams/lead-sources";
import { setWorkspaceCurrency } from "../workspace/settings";
import { previewImport } from "./import-preview";
import { createLead } from "../leads/create-lead";
import { EXPORT_COLUMNS } from "../leads/export-leads";
import { refusedRowsCsv } from "./lead-import";
import { CLI_ACTOR } from "../audit/audit-log";
import { assignLeads, setLeadStatus } from "../leads/lead-ownership";
import { addMember } from "../teams/team-store";
import { createUser } from "../users/user-store";
import { actor, lead, makeTeam, run, text, upload } from "./lead-import.fixtures";

// What an import stores per field (lib/imports/column-mapping.ts, import-row.ts): the lead
// list's export imports back with no manual mapping and every field and extra field equal,
// and a Source column picks the team's source by name, else the one chosen for the file.

await useTestDatabase();

test("round trip: the lead list's export imports back with no manual mapping, fields and extra fields equal", async () => {
  await setWorkspaceCurrency("EUR");
  const from = await makeTeam("DE");
  const to = await makeTeam("DE");
  for (const team of [from, to]) await addLeadSource(team.id, "Webinar");
  const inputs: (Partial<LeadInput> & { name: string })[] = [
    {
      name: "Zoë Ågren-Smith",
      email: "Zoe@Example.com",
      phone: "+44 20 7946 0958",
      mobile_no: "0151 23456789",
      organization: "=cmd|' /C calc'!A0",
      job_title: '-Head of "Quotes", Commas',
      website: "example.com/path",
      territory: "EMEA",
      industry: "Software",
      annual_revenue: "1000000",
      no_of_employees: "50",
      source: "webinar",
      utm_source: "@newsletter",
      utm_medium: "email",
      utm_campaign: "spring launch",
      utm_term: "crm",
      utm_content: "+hero",
      // (An own "__proto__" key: JSON.parse makes one, an object literal would set the prototype.)
      extraFields: { interests: ["a", "b, c"], score: 42, consent: true, "Line break": "x\r\ny", ...JSON.parse('{"__proto__":"plain"}') },
    },
    { name: "Solo", phone: "12", website: "not a url at all", mobile_no: "abc" },
    { name: "Plain Person" },
  ];
  for (const input of inputs) await lead(from.id, input, "DE");

  const csv = await text(await exportLeadsCsv({ team: from, filter: { ...EMPTY_FILTER, sort: "oldest" }, actor }));
  const { record, proposed } = await upload(to.id, csv, "export.csv");
  assert.ok(!proposed.includes("extra"), `no column is left to guess: ${JSON.stringify(proposed)}`);
  const done = await run(record, { mapping: proposed });
  assert.deepEqual(await text(refusedRowsCsv(done)), await text(refusedRowsCsv({ ...done, id: "none" })), "no refused row");
  assert.deepEqual([done.createdCount, done.refusedCount], [3, 0]);

  const fields = async (teamId: string) =>
    (await db().lead.findMany({ where: { teamId }, orderBy: { seq: "asc" }, include: { source: { select: { name: true } } } })).map(
      ({ id: _id, seq: _seq, teamId: _team, sourceId: _sourceId, createdAt: _createdAt, importId: _importId, ...rest }) => rest,
    );
  const [original, imported] = [await fields(from.id), await fields(to.id)];
  assert.deepEqual(imported, original);
  assert.equal(Object.getOwnPropertyNames(imported[0]!.extraFields).includes("__proto__"), true);
  await setWorkspaceCurrency("USD");
});

test("the export names the key, web form, connection, status, owner and submissions of a lead; an import leaves them to the importing team", async () => {
  const [from, to] = [await makeTeam(), await makeTeam()];
  const ids = { apiKeyId: "k".repeat(20), formId: "form_" + "f".repeat(16), connectionId: "conn_" + "c".repeat(16) };
  const { leadId } = await createLead({
    team: { id: from.id, defaultPhoneCountry: null },
    ...ids,
    input: { extraFields: {}, name: "Via Tally" },
  });
  const owner = await createUser({ email: `owner-${from.slug}@example.com`, password: "correct horse battery" });
  await addMember({ teamId: from.id, userId: owner.id, role: "member" });
  assert.equal((await assignLeads({ teamId: from.id, leadIds: [leadId], ownerId: owner.id, actor: CLI_ACTOR })).ok, true);
  assert.equal((await setLeadStatus({ teamId: from.id, leadIds: [leadId], status: "qualified", actor: CLI_ACTOR })).ok, true);
  const csv = await text(await exportLeadsCsv({ team: from, filter: EMPTY_FILTER, actor }));
  const [header, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
  const cell = (name: (typeof EXPORT_COLUMNS)[number]) => row!.split(",")[header!.split(",").indexOf(`"${name}"`)];
  assert.deepEqual(
    [cell("api_key"), cell("web_form"), cell("connection"), cell("status"), cell("owner"), cell("submissions")],
    [`"${ids.apiKeyId}"`, `"${ids.formId}"`, `"${ids.connectionId}"`, `"qualified"`, `"${owner.email}"`, `"1"`],
  );

  const { record, proposed } = await upload(to.id, csv, "export.csv");
  await run(record, { mapping: proposed });
  const [imported] = await db().lead.findMany({ where: { teamId: to.id } });
  assert.deepEqual(
    [imported!.firstName, imported!.apiKeyId, imported!.formId, imported!.connectionId, imported!.status, imported!.ownerId],
    ["Via", null, null, null, "new", null],
  );
  assert.deepEqual(imported!.extraFields, {});
  // Its one submission is the import's, whatever the exported lead had.
  assert.deepEqual(
    (await db().leadSubmission.findMany({ where: { leadId: imported!.id } })).map((s) => s.channel),
    ["import"],
  );
});

test("sources: a Source column's team source by name (unknown: API, like the API), else the one chosen for the file", async () => {
  const team = await makeTeam();
  const webinar = await addLeadSource(team.id, "Webinar");
  const fair = await addLeadSource(team.id, "Trade fair");
  const { record, proposed } = await upload(team.id, "Name,Source\nA,webinar\nB,nowhere\nC,\n");
  const preview = await previewImport(record, proposed, { sourceId: fair.id });
  assert.deepEqual(
    preview.rows.map((r) => (r.ok ? r.lead.source : r.reason)),
    ["Webinar", "API", "Trade fair"],
  );
  await run(record, { sourceId: fair.id });
  const leads = await db().lead.findMany({ where: { importId: record.id }, orderBy: { seq: "asc" }, include: { source: true } });
  assert.deepEqual(
    leads.map((l) => l.source.name),
    ["Webinar", "API", "Trade fair"],
  );
  assert.equal(leads[0]!.sourceId, webinar.id);
});
