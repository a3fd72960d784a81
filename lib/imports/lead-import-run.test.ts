import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { EMPTY_FILTER } from "../leads/lead-filter";
import { listLeads } from "../leads/lead-list-store";
import { findLead } from "../leads/lead-store";
import { mergeLeads } from "../leads/merge-leads";
import type { ColumnMapping } from "./column-mapping";
import { BATCH_ROWS, importFilePath } from "./import-job";
import { findImport, type DuplicatesMode } from "./import-store";
import { previewImport } from "./import-preview";
import { CsvFileError, refusedRowsCsv, startImport, undoImport } from "./lead-import";
import { actor, lead, makeTeam, run, text, upload } from "./lead-import.fixtures";

// A lead import from upload to undo (lib/imports/lead-import.ts): the preview, the run in the
// background and the leads it stores by the API's rules (ids in file order, refused rows, the
// audit trail, the remembered mapping), the three duplicate modes, a broken file refused at
// upload, and undo. The job itself (one import per team, cancel, batch sizes, resume, lanes)
// is lead-import-job.test.ts; fields and sources, lead-import-fields.test.ts.

await useTestDatabase();

const GOOD = [
  "First name,Last name,E-mail,Mobile,Company,Favourite colour",
  "Ada,Lovelace,ada@example.com,07911 123456,Analytical Engines,green",
  ",,nobody@example.com,,,", // no name: refused
  "Grace,Hopper,grace@,,,", // invalid email: refused
  "Alan,Turing,alan@example.com,not a phone,,", // invalid phone: skipped and kept
  "Ada,King,ADA@example.com,,,blue", // the same email as row 2
].join("\r\n");

test("an import previews, runs in the background and stores its leads by the API's rules, ids in file order", async () => {
  const team = await makeTeam();
  const before = await lead(team.id, { name: "Before Import" });
  const { record, proposed, remembered } = await upload(team.id, GOOD);
  assert.equal(remembered, false);
  assert.deepEqual(proposed, ["first_name", "last_name", "email", "mobile_no", "organization", "extra"]);
  assert.equal(record.status, "draft");
  assert.equal(record.totalRows, 5);

  const preview = await previewImport(record, proposed, { sourceId: null });
  assert.equal(preview.totalRows, 5);
  assert.equal(preview.refusedRows, 2);
  assert.deepEqual(
    preview.rows.map((r) => (r.ok ? [r.row, r.lead.firstName, r.lead.mobileNo, r.skipped] : [r.row, r.reason])),
    [
      [2, "Ada", "+447911123456", []],
      [3, "Name is required"],
      [4, "Invalid email address: grace@"],
      [5, "Alan", null, ["mobile_no"]],
      [6, "Ada", null, []],
    ],
  );
  assert.equal(await db().lead.count({ where: { teamId: team.id } }), 1, "a preview writes nothing");

  const done = await run(record);
  assert.equal(done.status, "done");
  assert.deepEqual([done.cursor, done.createdCount, done.updatedCount, done.skippedCount, done.refusedCount], [5, 3, 0, 0, 2]);
  assert.equal(existsSync(importFilePath(record.filePath)), false, "the stored file is removed once done");

  const leads = await db().lead.findMany({ where: { teamId: team.id, importId: record.id }, orderBy: { seq: "asc" } });
  assert.deepEqual(
    leads.map((l) => [l.firstName, l.lastName, l.email, l.mobileNo, l.skippedMobileNo, l.organization, l.extraFields]),
    [
      ["Ada", "Lovelace", "ada@example.com", "+447911123456", null, "Analytical Engines", { "Favourite colour": "green" }],
      ["Alan", "Turing", "alan@example.com", null, "not a phone", "Alan Turing", {}],
      ["Ada", "King", "ADA@example.com", null, null, "Ada King", { "Favourite colour": "blue" }],
    ],
  );
  const seqs = leads.map((l) => l.seq);
  const beforeSeq = (await findLead({ id: before, teamId: team.id }))!.seq;
  assert.deepEqual(seqs, [beforeSeq + 1, beforeSeq + 2, beforeSeq + 3], "consecutive ids in file order");
  assert.ok(leads.every((l) => l.apiKeyId === null && l.formId === null && l.currency === "USD"));

  // The lead list filters by import.
  const page = await listLeads({ team, filter: { ...EMPTY_FILTER, importId: record.id } });
  assert.deepEqual(page.leads.map((l) => l.id).sort(), leads.map((l) => l.id).sort());

  // The refused rows, as CSV with a reason column.
  const refused = await text(refusedRowsCsv(done));
  assert.equal(
    refused,
    '\uFEFF"First name","Last name","E-mail","Mobile","Company","Favourite colour","reason"\r\n' +
      '"","","nobody@example.com","","","","Name is required"\r\n' +
      '"Grace","Hopper","grace@","","","","Invalid email address: grace@"\r\n',
  );

  // Audited with counts and the file name, never a row's content.
  const events = await listAuditEvents(team.id);
  assert.deepEqual(
    events.map((e) => [e.action, e.targetId, e.details]),
    [
      [
        "lead.imported",
        record.id,
        {
          status: "done",
          fileName: "leads.csv",
          rows: 5,
          totalRows: 5,
          created: 3,
          updated: 0,
          skipped: 0,
          refused: 2,
          duplicates: "create",
        },
      ],
      ["lead.import_started", record.id, { fileName: "leads.csv", rows: 5, duplicates: "create", assign: "none" }],
    ],
  );
  assert.doesNotMatch(JSON.stringify(events), /ada@example|Lovelace|07911/);

  // The next file with the same headers is offered the mapping used, by column name.
  const chosen = ["first_name", "last_name", "email", "ignore", "organization", "extra"] as ColumnMapping;
  const second = await upload(team.id, GOOD);
  assert.equal(second.remembered, true, "the import above");
  assert.deepEqual(second.proposed, proposed);
  await startImport({ record: second.record, mapping: chosen, duplicates: "skip", sourceId: null, actor });
  const reordered = await upload(team.id, "last name,first name,e-mail,mobile,company,favourite colour\r\nX,Y,,,,\r\n");
  assert.equal(reordered.remembered, true);
  assert.deepEqual(reordered.proposed, ["last_name", "first_name", "email", "ignore", "organization", "extra"]);
  const other = await upload(team.id, "Name,Mobile\nX,\n");
  assert.equal(other.remembered, false);
});

test("duplicates: skip, update (fill empty fields) or create, against the team's leads and earlier rows", async () => {
  const file = [
    "Name,Email,Phone,Job title,Notes",
    "Existing Person,old@example.com,,Engineer,from file",
    "By Phone,,+44 7911 123456,Pilot,",
    "New Person,new@example.com,,,",
    "New Again,NEW@example.com,,Chef,second",
  ].join("\n");
  const results: Record<DuplicatesMode, number[]> = { skip: [], update: [], create: [] };
  for (const mode of ["skip", "update", "create"] as const) {
    const team = await makeTeam();
    const existing = await lead(team.id, { name: "Existing", email: "OLD@example.com", extraFields: { kept: "yes" } });
    const byPhone = await lead(team.id, { name: "Phone Owner", mobile_no: "07911 123456", job_title: "Captain" });
    const { record } = await upload(team.id, file);
    const done = await run(record, { duplicates: mode });
    results[mode] = [done.createdCount, done.updatedCount, done.skippedCount, done.refusedCount];
    const stored = (await findLead({ id: existing, teamId: team.id }))!;
    const phoneOwner = (await findLead({ id: byPhone, teamId: team.id }))!;
    const created = await db().lead.findMany({ where: { importId: record.id }, orderBy: { seq: "asc" } });
    if (mode === "update") {
      assert.equal(stored.jobTitle, "Engineer", "an empty field is filled");
      assert.equal(stored.firstName, "Existing", "a filled field is kept");
      assert.deepEqual(stored.extraFields, { kept: "yes", Notes: "from file" });
      assert.equal(phoneOwner.jobTitle, "Captain", "nothing replaced");
      assert.equal(phoneOwner.phone, "+447911123456", "matched on the mobile, its empty phone filled");
      assert.equal(created.length, 1);
      assert.equal(created[0]!.jobTitle, "Chef", "a later row of the file fills the earlier row's lead");
      assert.deepEqual(created[0]!.extraFields, { Notes: "second" });
    } else {
      assert.equal(stored.jobTitle, null);
    }
  }
  assert.deepEqual(results, {
    skip: [1, 0, 3, 0],
    update: [1, 3, 0, 0],
    create: [4, 0, 0, 0],
  });
});

test("a full batch of rows with emails and phones is checked for duplicates (no query over the parameter limit)", async () => {
  const team = await makeTeam();
  await lead(team.id, { name: "Already", mobile_no: "+44 7900 000007" });
  const rows = Array.from({ length: BATCH_ROWS + 20 }, (_, i) => `Person ${i},p${i}@example.com,+44 7900 ${String(i).padStart(6, "0")}`);
  const { record } = await upload(team.id, ["Name,Email,Phone", ...rows].join("\n"));
  const done = await run(record, { duplicates: "skip" });
  assert.deepEqual([done.status, done.createdCount, done.skippedCount], ["done", BATCH_ROWS + 19, 1]);
});

test("undo deletes the import's leads, keeps (and names) those another lead was merged into since", async () => {
  const team = await makeTeam();
  const { record } = await upload(team.id, "Name,Email\nOne,one@example.com\nTwo,two@example.com\nThree,three@example.com\n");
  await run(record);
  const [one, two] = await db().lead.findMany({ where: { importId: record.id }, orderBy: { seq: "asc" } });
  const other = await lead(team.id, { name: "Two Again", email: "two@example.com" });
  assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: two!.id, mergedIds: [other], choices: {}, actor }), { ok: true });
  const unrelated = await lead(team.id, { name: "Unrelated" });

  const done = (await findImport(team.id, record.id))!;
  const result = await undoImport({ record: done, actor });
  assert.deepEqual(result, { ok: true, deleted: 2, kept: [two!.id] });
  assert.equal(await findLead({ id: one!.id, teamId: team.id }), null);
  assert.ok(await findLead({ id: two!.id, teamId: team.id }));
  assert.ok(await findLead({ id: unrelated, teamId: team.id }));
  assert.equal((await findImport(team.id, record.id))!.status, "undone");
  const [event] = await listAuditEvents(team.id);
  assert.deepEqual(
    [event!.action, event!.details],
    ["lead.import_undone", { fileName: "leads.csv", deleted: 2, kept: 1, keptIds: two!.id }],
  );
  assert.deepEqual(await undoImport({ record: (await findImport(team.id, record.id))!, actor }), {
    ok: false,
    error: "This import was undone already.",
  });
});

test("a broken file is refused at upload with nothing recorded or kept", async () => {
  const team = await makeTeam();
  await assert.rejects(upload(team.id, 'Name,Email\n"Ada,ada@example.com\n'), CsvFileError);
  await assert.rejects(upload(team.id, "Name,Email\nAda\n"), /Row 2 has 1 cells/);
  assert.equal(await db().import.count({ where: { teamId: team.id } }), 0);
});
