import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { dataStatements } from "../../scripts/check-migrations";
import type { AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { applyRetention } from "../maintenance/lead-retention";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam, setTeamRetention } from "../teams/team-store";
import { createLead } from "./create-lead";
import { deleteLeadsById } from "./delete-leads";
import { parsePerson, runErasure } from "./erase-person";
import { exportLeadBatches } from "./lead-export-store";
import { findLeadSubmissions } from "./lead-submission-store";
import { EMPTY_FILTER } from "./lead-filter";
import { mergeLeads } from "./merge-leads";
import { writeLead, writeLeadBatch, type LeadWrite } from "./lead-writer";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";
import type { LeadInput } from "./parse-lead-input";

// A lead's submissions (docs/leads.md "Submissions") on a real database (SQLite and
// PostgreSQL): a lead rolled back in a group commit leaves none; deleting a lead, erasing
// its person and the team's retention delete its submissions with it (the foreign key
// cascades); the export counts them; the migration gives every older lead its first one. Each channel's first
// submission: lib/intake/store-lead-submissions.test.ts.

const database = await useTestDatabase();
const actor: AuditActor = { userId: null, ip: null, via: "web" };
let teams = 0;
const makeTeam = () => createTeam({ slug: `submissions-${++teams}`, name: `Submissions ${teams}`, defaultPhoneCountry: "GB" });

async function lead(teamId: string, input: Partial<LeadInput> & { name: string }): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: "GB" }, apiKeyId: null, input: { extraFields: {}, ...input } }))
    .leadId;
}

const submissionsOfTeam = async (teamId: string) =>
  (await db().leadSubmission.findMany({ where: { teamId }, select: { leadId: true }, orderBy: { leadId: "asc" } })).map((s) => s.leadId);

test("in a group commit, a lead rolled back to its savepoint (a lost claim, a replayed challenge) leaves no submission; the others keep theirs", async () => {
  const team = await makeTeam();
  const source = await resolveLeadSource(team.id);
  const [a, b, c] = fc.sample(leadFieldsOf(team.id).filter(storableOn(database.provider)), 3);
  await db().spentChallenge.create({ data: { id: "nonce-spent", expiresAt: new Date(Date.now() + 60_000) } });
  const write = (fields: LeadWrite["lead"], extra: Partial<LeadWrite> = {}): LeadWrite => ({
    lead: fields,
    source: { chosen: source },
    events: { origin: { apiKeyId: null }, emails: false },
    now: new Date(),
    ...extra,
  });
  const settled = await Promise.allSettled([
    writeLead(write(a!)),
    writeLead(
      write(b!, {
        claim: { id: "no-such-claim", token: "t", response: () => ({ status: 201, body: "{}" }), lost: () => new Error("claim lost") },
      }),
    ),
    writeLead(write(c!, { spentChallenge: { id: "nonce-spent", expiresAt: new Date(), replayed: () => new Error("replayed") } })),
    writeLead(write(c!)),
  ]);
  assert.deepEqual(
    settled.map((s) => s.status),
    ["fulfilled", "rejected", "rejected", "fulfilled"],
  );
  const written = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.leadId] : [])).sort();
  assert.deepEqual(await submissionsOfTeam(team.id), written);
});

test("deleting leads, erasing their person and the team's retention delete their submissions with them", async () => {
  const team = await makeTeam();
  const deleted = await lead(team.id, { name: "Deleted Lead" });
  const ada = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com" });
  const adaAgain = await lead(team.id, { name: "Ada King", phone: "07911 123456", email: "ADA@example.com" });
  const old = await lead(team.id, { name: "Old Lead" });
  const kept = await lead(team.id, { name: "Grace Hopper", email: "grace@example.com" });
  assert.deepEqual(await submissionsOfTeam(team.id), [deleted, ada, adaAgain, old, kept].sort());

  assert.equal(await deleteLeadsById({ teamId: team.id, ids: [deleted], actor }), 1);
  const erasure = await runErasure({
    team: { id: team.id, defaultPhoneCountry: "GB" },
    person: parsePerson("ada@example.com", { defaultPhoneCountry: "GB" })!,
    confirmedIds: [ada, adaAgain],
    actor,
  });
  assert.equal(erasure.leads, 2);
  await db().lead.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });
  await setTeamRetention(team.id, 30);
  assert.equal((await applyRetention(new Date())).deleted, 1);

  assert.deepEqual(await submissionsOfTeam(team.id), [kept]);
  assert.equal(await db().leadSubmission.count({ where: { leadId: { in: [deleted, ada, adaAgain, old] } } }), 0);
});

test("the lead's page and the CSV export count each lead's submissions: the kept lead of a merge has its own and the merged leads'", async () => {
  const team = await makeTeam();
  const kept = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com" });
  const merged = await lead(team.id, { name: "Ada King", email: "ada@example.com" });
  const alone = await lead(team.id, { name: "Grace Hopper" });
  assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: kept, mergedIds: [merged], choices: {}, actor }), { ok: true });
  const exported = [];
  for await (const batch of exportLeadBatches({ id: team.id, defaultPhoneCountry: "GB" }, EMPTY_FILTER, 1)) exported.push(...batch);
  assert.deepEqual(
    exported.map((row) => [row.id, row.submissions]),
    [
      [alone, 1],
      [kept, 2],
    ],
  );
  const page = await findLeadSubmissions({ teamId: team.id, leadId: kept });
  assert.equal(page.count, 2);
  assert.deepEqual(
    page.newest.map((s) => [s.id, s.channel]),
    [
      [`sub_${merged}`, "api"],
      [`sub_${kept}`, "api"],
    ],
    "newest first",
  );
  const other = await makeTeam();
  assert.deepEqual(await findLeadSubmissions({ teamId: other.id, leadId: kept }), { count: 0, newest: [] }, "another team's lead");
});

test("the migration gives every lead it finds its first submission: the channel that made it, the lead's time, no fields", async () => {
  const team = await makeTeam();
  const source = await resolveLeadSource(team.id);
  const [fields] = fc.sample(leadFieldsOf(team.id).filter(storableOn(database.provider)), 1);
  const origins = [
    { apiKeyId: "k".repeat(20), formId: null, connectionId: null },
    { apiKeyId: null, formId: "form_abc", connectionId: null },
    { apiKeyId: null, formId: "form_abc", connectionId: "cmconnection" },
    { apiKeyId: null, formId: null, connectionId: null },
  ];
  const hotPath: string[] = [];
  for (const origin of origins) {
    const { leadId } = await writeLead({
      lead: { ...fields!, ...origin },
      source: { chosen: source },
      events: { origin, emails: false },
      now: new Date(Date.UTC(2026, 0, hotPath.length + 1, 9, 30, 0, 123)),
    });
    hotPath.push(leadId);
  }
  const [imported] = await db().$transaction((tx) =>
    writeLeadBatch(tx, [{ ...fields!, ...origins[3]!, sourceId: source.id, currency: "USD", importId: "imp_1" }]),
  );
  // The database as it was before the migration: leads without submissions.
  await db().leadSubmission.deleteMany();
  const folder = database.provider === "postgres" ? "postgres" : "sqlite";
  const sql = readFileSync(
    path.join(import.meta.dirname, "../../prisma", folder, "migrations/20261201000002_lead_submissions/migration.sql"),
    "utf8",
  );
  const [backfill, ...others] = dataStatements(sql);
  assert.equal(others.length, 0);
  await db().$executeRawUnsafe(backfill!);

  const leads = await db().lead.findMany({ where: { teamId: team.id }, orderBy: { seq: "asc" } });
  const submissions = await db().leadSubmission.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" } });
  assert.deepEqual(
    submissions,
    leads.map((row, i) => ({
      id: `sub_${row.id}`,
      leadId: row.id,
      teamId: team.id,
      channel: ["api", "form", "connection", "api", "import"][i],
      apiKeyId: row.apiKeyId,
      formId: row.formId,
      connectionId: row.connectionId,
      importId: row.importId,
      fields: null,
      skipped: null,
      createdAt: row.createdAt,
    })),
  );
  assert.deepEqual(
    leads.map((row) => row.id),
    [...hotPath, imported],
  );
  // Every lead of the database, one each.
  assert.equal(await db().leadSubmission.count(), await db().lead.count());
});
