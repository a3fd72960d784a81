import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { after, mock, test } from "node:test";
import { startWebhookReceiver } from "../../test/support/webhook-receiver";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { env } from "../env";
import { findImportFiles } from "../imports/import-erasure";
import { Dispatcher } from "../jobs/dispatcher";
import { setNewLeadEmails } from "../notifications/notification-changes";
import { recordRequest } from "../request-log/request-log-store";
import { addMember, createTeam } from "../teams/team-store";
import { createUser } from "../users/user-store";
import { webhookHandler } from "../webhooks/webhook-delivery";
import { createEndpoint, revealSigningSecret } from "../webhooks/webhook-endpoint-changes";
import { createLead } from "./create-lead";
import { deleteLeadsById } from "./delete-leads";
import { findPersonRecords, leadsOfPerson, parsePerson, runErasure } from "./erase-person";
import type { LeadInput } from "./parse-lead-input";

// Issue 27, finding 5: erasing a person left their webhook and email jobs queued (and sent
// later), their delivered jobs and delivery log, refused import rows and draft imports.
// After an erasure, no row of any table and no file under DATA_DIR names the person,
// except another team's (an erasure is the team's), and the audit event holds counts only.

// New-lead emails are queued only where email is configured; this test's handler sends nothing.
process.env.SMTP_URL = "smtp://127.0.0.1:9";
const database = await useTestDatabase();
mock.method(process.stderr, "write", () => true);

const actor: AuditActor = { userId: null, ip: null, via: "web" };
const receiver = await startWebhookReceiver();
after(() => receiver.close());

async function teamWithOutbox(slug: string) {
  const team = await createTeam({ slug, name: slug, defaultPhoneCountry: "GB" });
  const endpoint = await createEndpoint({ teamId: team.id, url: receiver.url, description: null, events: ["lead.created"], actor });
  receiver.secret = await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor });
  const member = await createUser({ email: `${slug}@example.test`, password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });
  await setNewLeadEmails({ userId: member.id, teamId: team.id, enabled: true, actor });
  return team;
}

const team = await teamWithOutbox("erase-jobs");
const other = await teamWithOutbox("erase-jobs-other");

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: "GB" }, apiKeyId: null, input: { extraFields: {}, ...input } }))
    .leadId;
}

const clock = { now: new Date(Date.now() + 1_000) };
const dispatcher = new Dispatcher({
  handlers: { webhook: webhookHandler({ allowPrivate: true }), email: { run: async () => ({ ok: true }) } },
  now: () => clock.now,
  random: () => 0.5,
  leaseMs: 60_000,
  retryBaseMs: 30_000,
});

let imports = 0;
/** An import of `teamId` in `status`; with `file`, its uploaded file under DATA_DIR/imports. */
async function importOf(teamId: string, status: string, file?: { text: string; encoding?: "utf-8" | "utf-16le" }) {
  const id = `imp_erase_${++imports}`;
  const filePath = path.join("imports", `${id}.csv`);
  const encoding = file?.encoding ?? "utf-8";
  if (file) {
    mkdirSync(path.join(env().DATA_DIR, "imports"), { recursive: true });
    const bytes = encoding === "utf-8" ? Buffer.from(file.text) : Buffer.from(`\uFEFF${file.text}`, "utf16le");
    writeFileSync(path.join(env().DATA_DIR, filePath), bytes);
  }
  const headers = ["name", "email", "phone"];
  await db().import.create({
    data: {
      id,
      teamId,
      status,
      fileName: "leads.csv",
      filePath,
      fileBytes: 1,
      encoding,
      delimiter: ",",
      headers,
      headerSignature: "s",
      totalRows: 2,
    },
  });
  return { id, file: path.join(env().DATA_DIR, filePath) };
}

async function refused(importId: string, row: number, cells: string[]): Promise<number> {
  return (await db().importRefusedRow.create({ data: { importId, row, cells, reason: "Name is required." } })).id;
}

/** What any table holds of the person: each row naming them as [table, its id]. */
async function rowsNaming(needles: string[]): Promise<string[][]> {
  const tables =
    database.provider === "postgres"
      ? await db().$queryRawUnsafe<{ name: string }[]>(
          `SELECT CAST(table_name AS TEXT) AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        )
      : await db().$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`);
  const hits: string[][] = [];
  for (const { name } of tables) {
    if (name === "_prisma_migrations") continue;
    for (const row of await db().$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name}"`)) {
      const text = JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value)).toLowerCase();
      if (needles.some((needle) => text.includes(needle))) hits.push([name, String(row.id ?? row.name)]);
    }
  }
  return hits.sort();
}

function filesNaming(needles: string[]): string[] {
  const dir = path.join(env().DATA_DIR, "imports");
  return readdirSync(dir)
    .filter((name) => {
      const bytes = readFileSync(path.join(dir, name));
      const text = (bytes[0] === 0xff ? bytes.toString("utf16le") : bytes.toString("utf8")).toLowerCase();
      return needles.some((needle) => text.includes(needle));
    })
    .sort();
}

// How the person's data is written down anywhere: email, number (E.164, national digits,
// as typed), names.
const NEEDLES = ["ada@example.com", "+447911123456", "7911123456", "7911 123456", "7911 123-456", "lovelace", "ada byron", "ada old"];

test("erasure removes the person's jobs (queued and finished), delivery log, refused import rows and import files", async () => {
  // A lead deleted earlier: its jobs name the person by email only.
  const deletedEarlier = await lead(team.id, { name: "Ada Old", email: "ADA@example.com" });
  await deleteLeadsById({ teamId: team.id, ids: [deletedEarlier], actor });
  const ada = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com", phone: "+447911123456" });
  const charles = await lead(team.id, { name: "Charles Babbage", email: "charles@example.com" });
  const elsewhere = await lead(other.id, { name: "Ada Elsewhere", email: "ada@example.com" });
  // Delivered: one webhook and one email per lead, each webhook with its delivery-log row.
  // The dispatcher's clock a second past the jobs, however long the leads took to write.
  clock.now = new Date(Date.now() + 1_000);
  assert.equal(await dispatcher.runOnce(), 8);
  const charlesHook = await db().job.findFirstOrThrow({ where: { teamId: team.id, kind: "webhook", payload: { contains: charles } } });
  // A receiver's answer quoting the person, logged for another lead's delivery.
  await db().webhookAttempt.create({
    data: {
      ...{ jobId: charlesHook.id, endpointId: charlesHook.endpointId!, eventId: charlesHook.eventId, eventType: "lead.created" },
      ...{ attempt: 2, startedAt: new Date(), durationMs: 5, statusCode: 409, ok: false, responseExcerpt: "Already have ADA@example.com" },
    },
  });
  // Queued, not delivered yet: the four jobs the review saw stay behind.
  const byMobile = await lead(team.id, { name: "Ada Byron", mobile_no: "07911 123456" });
  const again = await lead(team.id, { name: "Ada Lovelace", email: "Ada@Example.com" });
  assert.equal(await db().job.count({ where: { teamId: team.id, state: "pending" } }), 4);

  const done = await importOf(team.id, "done");
  await refused(done.id, 2, ["Ada Lovelace", "not an email: ADA@EXAMPLE.COM", ""]);
  await refused(done.id, 3, ["", "", "+44 (0)7911 123-456"]);
  const kept = [
    await refused(done.id, 4, ["Grace Hopper", "grace@example.com", "+1 415 555 0123"]),
    await refused(done.id, 5, ["Near Miss", "", "079111234567"]),
  ];
  const otherImport = await importOf(other.id, "done");
  const otherRefused = await refused(otherImport.id, 2, ["", "ada@example.com", ""]);
  const draft = await importOf(team.id, "draft", {
    text: "name,email,phone\r\nGrace Hopper,grace@example.com,\r\nAda Lovelace,ada@example.com,\r\n",
  });
  const utf16 = await importOf(team.id, "draft", { text: "name;phone\nAda;07911 123456\n", encoding: "utf-16le" });
  const otherDraft = await importOf(team.id, "draft", { text: "name,email\nGrace Hopper,grace@example.com\n" });
  const failed = await importOf(team.id, "failed", { text: "name,phone\nAda,+447911123456\n" });
  const otherTeamsDraft = await importOf(other.id, "draft", { text: "name,email\nAda Elsewhere,ada@example.com\n" });

  const person = parsePerson("ada@example.com", team)!;
  const ids = (await leadsOfPerson(team, person)).map((l) => l.id);
  assert.deepEqual(ids.sort(), [ada, byMobile, again].sort());
  const result = await runErasure({ team, person, confirmedIds: ids, actor });

  const jobsLeft = await db().job.findMany({ where: { teamId: team.id }, select: { state: true, payload: true }, orderBy: { id: "asc" } });
  assert.deepEqual(
    jobsLeft.filter((job) => !job.payload.includes(charles)).map((job) => job.state),
    [],
    "none of the person's jobs stays, queued or delivered",
  );
  assert.equal(jobsLeft.length, 2, "Charles's webhook and email stay");
  assert.equal(await db().webhookAttempt.count({ where: { jobId: charlesHook.id } }), 1, "Charles's own delivery-log row stays");
  assert.deepEqual(
    (await db().importRefusedRow.findMany({ where: { importId: done.id }, select: { id: true } })).map((r) => r.id),
    kept,
  );
  assert.deepEqual(
    (await db().import.findMany({ where: { teamId: team.id }, select: { id: true }, orderBy: { id: "asc" } })).map((i) => i.id),
    [done.id, otherDraft.id, failed.id].sort(),
    "the two drafts naming the person are gone; the failed import's row (its counts) stays",
  );
  for (const gone of [draft, utf16, failed]) assert.equal(existsSync(gone.file), false);
  for (const stays of [otherDraft, otherTeamsDraft]) assert.equal(existsSync(stays.file), true);

  // Nothing else names the person: another team's lead, jobs, refused row and draft stay,
  // and the refused row of a longer number that holds the person's digits (not theirs).
  const otherJob = await db().job.findFirstOrThrow({ where: { teamId: other.id, kind: "webhook" } });
  const otherEmail = await db().job.findFirstOrThrow({ where: { teamId: other.id, kind: "email" } });
  assert.deepEqual(
    await rowsNaming(NEEDLES),
    [
      ["ImportRefusedRow", String(otherRefused)],
      ["ImportRefusedRow", String(kept[1])],
      ["Job", otherEmail.id],
      ["Job", otherJob.id],
      ["Lead", elsewhere],
      // The other team's lead keeps the submission that made it.
      ["LeadSubmission", `sub_${elsewhere}`],
    ].sort(),
  );
  assert.deepEqual(filesNaming(NEEDLES), [path.basename(otherTeamsDraft.file)]);

  assert.deepEqual(result, {
    leads: 3,
    submissions: 0,
    quarantined: 0,
    heldSubmissions: 0,
    requestLogRows: 0,
    storedResponses: 0,
    jobs: 8, // 2 delivered (Ada), 2 delivered (the lead deleted earlier), 4 queued
    deliveryAttempts: 3, // 2 webhooks' rows, and the answer quoting the email
    refusedImportRows: 2,
    importDrafts: 2,
    importFiles: 3, // the two drafts' and the failed import's
    importFilesUnchecked: 0,
    connectionDeliveries: 0,
  });
  const [event] = await listAuditEvents(team.id);
  assert.equal(event!.action, "lead.erased");
  const { ids: auditedIds, ...counts } = event!.details!;
  const { leads, ...rest } = result;
  assert.deepEqual(counts, { count: leads, ...rest }, "the audit event counts what went");
  assert.deepEqual(String(auditedIds).split(",").sort(), ids.sort());
  const audited = JSON.stringify(event).toLowerCase();
  for (const needle of [...NEEDLES, "ada", "7911"]) assert.ok(!audited.includes(needle), `the audit event does not hold ${needle}`);
});

test("an erasure finds the person's jobs and refused rows even when none of their leads is left", async () => {
  const grace = await lead(team.id, { name: "Grace Hopper", email: "grace@navy.example" });
  const someone = await lead(team.id, { name: "Someone Else", email: "someone@example.com" });
  // Delivered (each webhook's delivery-log row); a receiver's answer quoting her, logged for her job and for another's.
  clock.now = new Date(Date.now() + 1_000);
  assert.equal(await dispatcher.runOnce(), 4);
  const answer = { startedAt: new Date(), durationMs: 5, statusCode: 409, ok: false, responseExcerpt: "Already have Grace@navy.example" };
  for (const leadId of [grace, someone]) {
    const hook = await db().job.findFirstOrThrow({ where: { teamId: team.id, kind: "webhook", payload: { contains: leadId } } });
    const quoting = { jobId: hook.id, endpointId: hook.endpointId!, eventId: hook.eventId, eventType: "lead.created", attempt: 2 };
    await db().webhookAttempt.create({ data: { ...quoting, ...answer } });
  }
  await deleteLeadsById({ teamId: team.id, ids: [grace], actor });
  const imported = await importOf(team.id, "done");
  await refused(imported.id, 2, ["", "GRACE@navy.example", ""]);
  await recordRequest({
    teamId: team.id,
    apiKeyId: "k".repeat(20),
    status: 422,
    error: "Invalid email: grace@navy.example.",
    ip: null,
    encoding: "json",
  });
  const person = parsePerson("grace@navy.example", team)!;
  // What the Erase page lists for a person with no lead is what the erasure then removes.
  const found = await findPersonRecords(team, person);
  assert.equal(found.leads.length, 0);
  const result = await runErasure({ team, person, confirmedIds: [grace], actor });
  assert.equal(await db().job.count({ where: { payload: { contains: "navy.example" } } }), 0);
  assert.deepEqual([result.leads, result.jobs, result.deliveryAttempts, result.refusedImportRows, result.requestLogRows], [0, 2, 3, 1, 1]);
  const { leads: _leads, storedResponses: _responses, ...erased } = result;
  assert.deepEqual(found.records, erased);
  const [event] = await listAuditEvents(team.id);
  assert.deepEqual([event!.action, event!.details!.count, event!.details!.jobs], ["lead.erased", 0, 2]);
});

test("uploaded files are streamed: a contact across two chunks is found; past the byte budget a file is unchecked", async () => {
  const budgeted = await createTeam({ slug: "erase-budget", name: "Budget" });
  const contacts = { emails: ["lin@example.com"], phones: ["+447911123456"] };
  const small = await importOf(budgeted.id, "draft", { text: "name,email\nLin,lin@example.com\n" });
  assert.deepEqual(await findImportFiles({ teamId: budgeted.id, contacts, budgetBytes: 10 }), { matches: [], unchecked: 1 });
  // The stream reads 64 KiB at a time: the email straddles the first boundary, the number
  // follows a cell longer than the 64 Ki-character window.
  const straddling = await importOf(budgeted.id, "draft", { text: `name,email\n${"x".repeat(65_536 - 16)},lin@example.com\n` });
  const afterLongCell = await importOf(budgeted.id, "draft", { text: `name,phone\n${"y".repeat(200_000)},07911 123456\n` });
  const nobody = await importOf(budgeted.id, "draft", { text: `name,phone\n${",".repeat(200_000)}079111234567\n` });
  const found = await findImportFiles({ teamId: budgeted.id, contacts });
  assert.deepEqual(found.unchecked, 0);
  assert.deepEqual(found.matches.map((m) => m.importId).sort(), [small.id, straddling.id, afterLongCell.id].sort());
  assert.ok(!found.matches.some((m) => m.importId === nobody.id));
});
