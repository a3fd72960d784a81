import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { Readable } from "node:stream";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { Dispatcher } from "../jobs/dispatcher";
import { claimJobById, type ClaimedJob } from "../jobs/job-store";
import { createLead } from "../leads/create-lead";
import { exportLeadsCsv } from "../leads/export-leads";
import { EMPTY_FILTER } from "../leads/lead-filter";
import { listLeads } from "../leads/lead-list-store";
import { findLead } from "../leads/lead-store";
import { mergeLeads } from "../leads/merge-leads";
import type { LeadInput } from "../leads/parse-lead-input";
import { addLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { setWorkspaceCurrency } from "../workspace/settings";
import { proposeMapping, type ColumnMapping } from "./column-mapping";
import { BATCH_ROWS, BUSY_BATCH_ROWS, importFilePath, importHandler, runImport } from "./import-job";
import { intakeBusy, trackIntake } from "../operations/intake-activity";
import { commitBatch, BatchFencedError } from "./import-batch-store";
import { findImport, importJobId, type DuplicatesMode, type ImportRecord } from "./import-store";
import { previewImport } from "./import-preview";
import { cancelImport, CsvFileError, refusedRowsCsv, startImport, undoImport, uploadImport } from "./lead-import";

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: "203.0.113.9", via: "web" };
const LEASE = { workerId: "test-worker", leaseMs: 60_000 };
let teams = 0;
const makeTeam = (defaultPhoneCountry: string | null = "GB") =>
  createTeam({ slug: `import-${++teams}`, name: `Import ${teams}`, defaultPhoneCountry });

const upload = (teamId: string, text: string, fileName = "leads.csv") =>
  uploadImport({ teamId, fileName, body: Readable.from([Buffer.from(text, "utf8")]), createdById: null });

/** The stream's text, BOM included. */
async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

/** Starts an import and runs its job to the end through the import lane's dispatcher. */
async function run(
  record: ImportRecord,
  options: { mapping?: ColumnMapping; duplicates?: DuplicatesMode; sourceId?: string | null } = {},
): Promise<ImportRecord> {
  const started = await startImport({
    record,
    mapping: options.mapping ?? proposeMapping(record.headers),
    duplicates: options.duplicates ?? "create",
    sourceId: options.sourceId ?? null,
    actor,
  });
  assert.deepEqual(started, { ok: true });
  // The lane takes what is due (other tests leave queued imports too) until this one has ended.
  const dispatcher = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    workerId: "lane",
  });
  for (;;) {
    const current = (await findImport(record.teamId, record.id))!;
    if (!["queued", "running"].includes(current.status)) return current;
    assert.ok((await dispatcher.runOnce()) > 0, "the import's job is due");
  }
}

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }, defaultPhoneCountry = "GB"): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry }, apiKeyId: null, input: { extraFields: {}, ...input } })).leadId;
}

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
      ["lead.import_started", record.id, { fileName: "leads.csv", rows: 5, duplicates: "create" }],
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

test("one import at a time per team; a cancel stops after the batch in progress and keeps what was written", async () => {
  const team = await makeTeam();
  const rows = Array.from({ length: BATCH_ROWS * 2 + 10 }, (_, i) => `Person ${i},p${i}@example.com`);
  const first = await upload(team.id, ["Name,Email", ...rows].join("\n"));
  const second = await upload(team.id, "Name\nOther\n");
  assert.deepEqual(await startImport({ record: first.record, mapping: first.proposed, duplicates: "create", sourceId: null, actor }), {
    ok: true,
  });
  const busy = await startImport({ record: second.record, mapping: second.proposed, duplicates: "create", sourceId: null, actor });
  assert.deepEqual(busy, { ok: false, error: "Another import of this team is running: wait for it to finish (or cancel it) first." });
  const twice = await startImport({ record: first.record, mapping: first.proposed, duplicates: "create", sourceId: null, actor });
  assert.equal(twice.ok, false);

  const job = (await claimJobById({
    id: (await importJobId(first.record.id))!,
    workerId: LEASE.workerId,
    now: new Date(),
    leaseMs: LEASE.leaseMs,
  }))!;
  let batches = 0;
  const result = await runImport({
    importId: first.record.id,
    job,
    lease: LEASE,
    onProgress: async () => {
      if (++batches === 1) assert.equal(await cancelImport({ record: first.record, actor }), true);
    },
  });
  assert.deepEqual(result, { ok: true });
  const cancelled = (await findImport(team.id, first.record.id))!;
  assert.equal(cancelled.status, "cancelled");
  assert.equal(cancelled.createdCount, BATCH_ROWS, "the first batch is kept");
  assert.equal(await db().lead.count({ where: { importId: first.record.id } }), BATCH_ROWS);
  assert.deepEqual(
    (await listAuditEvents(team.id)).map((e) => [e.action, e.details?.status ?? null, e.details?.created ?? null]),
    [
      ["lead.imported", "cancelled", BATCH_ROWS],
      ["lead.import_cancelled", null, null],
      ["lead.import_started", null, null],
    ],
  );
  // The slot is free again.
  assert.deepEqual(await startImport({ record: second.record, mapping: second.proposed, duplicates: "create", sourceId: null, actor }), {
    ok: true,
  });
});

test("while create_lead is being served in this process, batches are smaller (SQLite's writer is held a fifth as long)", async () => {
  const team = await makeTeam();
  const rows = Array.from({ length: BATCH_ROWS + 30 }, (_, i) => `Person ${i}`);
  const { record, proposed } = await upload(team.id, ["Name", ...rows].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const job = (await claimJobById({
    id: (await importJobId(record.id))!,
    workerId: LEASE.workerId,
    now: new Date(),
    leaseMs: LEASE.leaseMs,
  }))!;
  const cursors: number[] = [];
  let release!: () => void;
  const request = trackIntake(() => new Promise<void>((resolve) => (release = resolve)));
  try {
    const result = await runImport({
      importId: record.id,
      job,
      lease: LEASE,
      onProgress: (progress) => {
        cursors.push(progress.cursor);
        // The request ends after the second batch: the import goes back to full batches.
        if (cursors.length === 2) release();
      },
    });
    assert.deepEqual(result, { ok: true });
  } finally {
    release();
    await request;
  }
  assert.deepEqual(cursors.slice(0, 2), [BUSY_BATCH_ROWS, 2 * BUSY_BATCH_ROWS]);
  assert.equal(cursors.at(-1), BATCH_ROWS + 30);
  assert.equal((await findImport(team.id, record.id))!.createdCount, BATCH_ROWS + 30);
});

test("an import whose runner died resumes after its last committed batch; the dead runner's late batch is refused", async () => {
  // The test before ends an intake request moments before this one starts (on a fast
  // machine within intakeBusy's 100 ms): batches are full-size only once the intake is quiet.
  while (intakeBusy()) await new Promise((resolve) => setTimeout(resolve, 20));
  const team = await makeTeam();
  const total = BATCH_ROWS * 2 + 7;
  const rows = Array.from({ length: total }, (_, i) => `Person ${i}`);
  const { record, proposed } = await upload(team.id, ["Name", ...rows].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const jobId = (await importJobId(record.id))!;
  const t0 = new Date();
  const dead = (await claimJobById({ id: jobId, workerId: "dead", now: t0, leaseMs: 60_000 }))!;

  // The first runner commits one batch, then dies (its progress callback throws; nothing more is written).
  const died = await runImport({
    importId: record.id,
    job: dead,
    lease: { workerId: "dead", leaseMs: 60_000 },
    now: () => t0,
    onProgress: () => {
      throw new Error("killed");
    },
  });
  assert.equal(died.ok, false);
  assert.equal((await findImport(team.id, record.id))!.cursor, BATCH_ROWS);

  // Its lease runs out; the import lane of another instance takes the job and finishes it.
  const later = new Date(t0.getTime() + 61_000);
  const other = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    workerId: "other",
    now: () => later,
  });
  // (It may take other tests' leftover jobs too: the lane claims what is due.)
  assert.ok((await other.runOnce()) >= 1);
  const done = (await findImport(team.id, record.id))!;
  assert.equal(done.status, "done");
  assert.equal(done.createdCount, total);
  const names = (
    await db().lead.findMany({ where: { importId: record.id }, orderBy: { seq: "asc" }, select: { firstName: true, lastName: true } })
  ).map((l) => `${l.firstName} ${l.lastName}`);
  assert.deepEqual(names, rows, "every row exactly once, in file order");

  // The dead runner wakes up and tries to commit a batch under its lost claim: refused, nothing written.
  await assert.rejects(
    commitBatch(
      {
        importId: record.id,
        teamId: team.id,
        from: BATCH_ROWS,
        rows: 1,
        leads: [],
        fills: [],
        updatedPending: 0,
        skipped: 0,
        refused: [{ row: 2, cells: ["x"], reason: "x" }],
      },
      { job: dead as ClaimedJob, lease: { workerId: "dead", leaseMs: 60_000 }, now: later },
    ),
    BatchFencedError,
  );
  assert.equal(await db().importRefusedRow.count({ where: { importId: record.id } }), 0);
});

test("two instances' import lanes: exactly one runs the import", async () => {
  const team = await makeTeam();
  const { record, proposed } = await upload(team.id, ["Name", ...Array.from({ length: 50 }, (_, i) => `P ${i}`)].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const lane = (workerId: string) =>
    new Dispatcher({ handlers: { import: importHandler }, lane: "imports", leaseMs: 60_000, retryBaseMs: 1_000, workerId });
  // A delivery lane never takes an import.
  assert.equal(await new Dispatcher({ handlers: {}, leaseMs: 60_000, retryBaseMs: 1_000 }).runOnce(), 0);
  await Promise.all([lane("a").runOnce(), lane("b").runOnce()]);
  const job = await db().job.findUniqueOrThrow({ where: { id: (await importJobId(record.id))! } });
  assert.deepEqual([job.state, job.attempts], ["delivered", 1], "claimed once, by one of them");
  assert.equal(await db().lead.count({ where: { importId: record.id } }), 50);
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

test("a broken file is refused at upload with nothing recorded or kept", async () => {
  const team = await makeTeam();
  await assert.rejects(upload(team.id, 'Name,Email\n"Ada,ada@example.com\n'), CsvFileError);
  await assert.rejects(upload(team.id, "Name,Email\nAda\n"), /Row 2 has 1 cells/);
  assert.equal(await db().import.count({ where: { teamId: team.id } }), 0);
});
