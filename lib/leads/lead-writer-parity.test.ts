import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { rawJson } from "../db/raw-json";
import { submissionRow } from "./lead-write";
import { writeLead, writeLeadBatch } from "./lead-writer";
import { leadFieldsOf, modelFields, storableOn } from "./lead-writer.fixtures";
import { lastLeadNumber } from "./lead-number-store";
import { derivedColumns, type NewLead } from "./new-lead";
import { resolveLeadSource } from "../teams/lead-sources";
import { addMember, createTeam } from "../teams/team-store";

// The lead writer writes with its own SQL (lib/leads/lead-writer.ts). These tests keep it
// honest against Prisma, which owns the schema: what it writes (generated leads and their
// first submissions, the request-log row, the outbox rows, the spent challenge) reads back
// through Prisma exactly as Prisma's own write of the same values does, and a replayed
// challenge or a lost claim rolls everything back. Its column lists: lead-writer-columns.test.ts.

const database = await useTestDatabase();
// Every top-level await comes before the first describe: node:test may run a file's suites
// (and then its cleanup) while the module is still evaluating.
const team = await createTeam({ slug: "hot-path", name: "Hot path" });
const source = await resolveLeadSource(team.id);
const leadFields = leadFieldsOf(team.id);
const storable = storableOn(database.provider);

/** The lead's first submission, as written by the lead writer, equals Prisma's write of the same row, field by field. */
async function assertSubmissionAsPrismaWrites(leadId: string, fields: Parameters<typeof submissionRow>[0], createdAt: Date): Promise<void> {
  const row = submissionRow(fields, { id: `sub_${leadId}_prisma`, leadId, createdAt });
  await db().leadSubmission.create({ data: { ...row, fields: rawJson(row.fields), skipped: rawJson(row.skipped) } });
  const [written, reference] = await Promise.all([
    db().leadSubmission.findUniqueOrThrow({ where: { id: `sub_${leadId}` } }),
    db().leadSubmission.findUniqueOrThrow({ where: { id: `sub_${leadId}_prisma` } }),
  ]);
  assert.deepEqual({ ...written, id: "" }, { ...reference, id: "" }, "the submission differs between the lead writer and Prisma");
  await db().leadSubmission.delete({ where: { id: `sub_${leadId}_prisma` } });
}

/**
 * The lead `leadId`, as written by `writer`, equals Prisma's write of the same values
 * (`lead`) at the same time, every field but the id and number; Prisma's copy takes the id
 * `viaPrisma` and the number `seq`.
 */
async function assertLeadAsPrismaWrites(
  leadId: string,
  lead: NewLead & { importId?: string | null },
  at: { viaPrisma: string; seq: number; createdAt: Date },
  writer: string,
): Promise<void> {
  await db().lead.create({
    data: {
      ...lead,
      ...derivedColumns(lead),
      id: at.viaPrisma,
      seq: at.seq,
      createdAt: at.createdAt,
      extraFields: rawJson(lead.extraFields),
    },
  });
  const [written, reference] = await Promise.all([
    db().lead.findUniqueOrThrow({ where: { id: leadId } }),
    db().lead.findUniqueOrThrow({ where: { id: at.viaPrisma } }),
  ]);
  for (const field of modelFields("Lead")) {
    if (field === "id" || field === "seq") continue;
    assert.deepEqual(
      (written as Record<string, unknown>)[field],
      (reference as Record<string, unknown>)[field],
      `${field} differs between ${writer} and Prisma`,
    );
  }
}

describe("parity: what the hot path writes reads back through Prisma as Prisma's own write", () => {
  test("generated leads: every field equal to the same lead written by Prisma", async () => {
    let seq = 1_000_000;
    await fc.assert(
      fc.asyncProperty(leadFields.filter(storable), async (fields) => {
        const now = new Date(Date.UTC(2026, 10, 24, 12, 0, 0, fc.sample(fc.nat(999), 1)[0]));
        const written = await writeLead({
          lead: fields,
          source: { chosen: source },
          events: { origin: { apiKeyId: fields.apiKeyId, formId: fields.formId }, emails: false },
          now,
        });
        assert.ok(!written.added && !written.quarantined, "a new lead");
        const lead: NewLead = { ...fields, sourceId: source.id, currency: written.currency };
        ++seq;
        await assertLeadAsPrismaWrites(written.leadId, lead, { viaPrisma: `CRM-LEAD-P${seq}`, seq, createdAt: now }, "the hot path");
        const hot = await db().lead.findUniqueOrThrow({ where: { id: written.leadId } });
        assert.equal(hot.seq, Number(written.leadId.slice("CRM-LEAD-".length)));
        await assertSubmissionAsPrismaWrites(written.leadId, fields, now);
      }),
      { numRuns: 60 },
    );
  });

  test("an import's batch: each lead and its first submission read back as Prisma's own write, and the submission as the hot path's", async () => {
    const leads = fc.sample(leadFields.filter(storable), 40).map((fields) => ({ ...fields, sourceId: source.id, currency: "USD" }));
    const ids = await db().$transaction((tx) =>
      writeLeadBatch(
        tx,
        leads.map((lead, i) => ({ ...lead, importId: i % 2 ? "imp_1" : null })),
      ),
    );
    for (const [i, id] of ids.entries()) {
      // The lead itself (on PostgreSQL its batch is one INSERT … SELECT FROM unnest of an
      // array per column): every field as Prisma writes the same values.
      const lead = await db().lead.findUniqueOrThrow({ where: { id } });
      const submitted = { ...leads[i]!, importId: i % 2 ? "imp_1" : null };
      const viaPrisma = `CRM-LEAD-B${lead.seq}`;
      await assertLeadAsPrismaWrites(id, submitted, { viaPrisma, seq: -lead.seq, createdAt: lead.createdAt }, "an import's batch");
      await db().lead.delete({ where: { id: viaPrisma } });
      const stored = await db().leadSubmission.findUniqueOrThrow({ where: { id: `sub_${id}` } });
      await assertSubmissionAsPrismaWrites(id, submitted, stored.createdAt);
      const hot = await writeLead({
        lead: leads[i]!,
        source: { chosen: source },
        events: { origin: {}, emails: false },
        now: stored.createdAt,
      });
      const viaHotPath = await db().leadSubmission.findUniqueOrThrow({ where: { id: `sub_${hot.leadId}` } });
      if (i % 2 === 0) assert.deepEqual({ ...viaHotPath, id: "", leadId: "" }, { ...stored, id: "", leadId: "" });
    }
  });

  test("the request-log row, the outbox rows and the spent challenge read back as written", async () => {
    const other = await createTeam({ slug: "hot-path-events", name: "Events" });
    const endpoint = await db().webhookEndpoint.create({
      data: { teamId: other.id, url: "https://hooks.example.com/in", events: "lead.created", secretCiphertext: "x" },
    });
    const user = await db().user.create({ data: { email: "notify@example.com", passwordHash: "x" } });
    await addMember({ teamId: other.id, userId: user.id, role: "member" });
    await db().membership.updateMany({ where: { teamId: other.id }, data: { notifyNewLeads: true } });
    const now = new Date(Date.UTC(2026, 10, 24, 13, 14, 15, 678));
    const expiresAt = new Date(now.getTime() + 300_000);
    const { leadId, jobs } = await writeLead({
      lead: { ...fc.sample(leadFields.filter(storable), 1)[0]!, teamId: other.id, firstName: "Ada" },
      source: { requested: "Newsletter" },
      requestLog: { apiKeyId: "0123456789abcdef0123", formId: null, ip: "203.0.113.9", encoding: "json" },
      spentChallenge: { id: "nonce-parity", expiresAt, replayed: () => new Error("replayed") },
      events: { origin: { apiKeyId: "0123456789abcdef0123", formId: null }, emails: true },
      now,
    });
    assert.equal(jobs, 2);
    const request = await db().apiRequest.findFirstOrThrow({ where: { leadId } });
    assert.deepEqual(
      { ...request, id: 0 },
      {
        id: 0,
        teamId: other.id,
        apiKeyId: "0123456789abcdef0123",
        formId: null,
        createdAt: now,
        status: 201,
        leadId,
        error: null,
        ip: "203.0.113.9",
        encoding: "json",
        spam: null,
      },
    );
    const rows = await db().job.findMany({ where: { teamId: other.id }, orderBy: { kind: "desc" } });
    assert.deepEqual(
      rows.map(({ id, payload, eventId, ...rest }) => ({
        ...rest,
        id: id.startsWith("job_"),
        payload: JSON.parse(payload).type ?? JSON.parse(payload).kind ?? "email",
        eventId: eventId.length > 0,
      })),
      [
        {
          teamId: other.id,
          kind: "webhook",
          endpointId: endpoint.id,
          chatDestinationId: null,
          leadId,
          eventType: "lead.created",
          state: "pending",
          attempts: 0,
          maxAttempts: rows[0]!.maxAttempts,
          runAt: now,
          lockedBy: null,
          lockedUntil: null,
          lastError: null,
          createdAt: now,
          finishedAt: null,
          id: true,
          payload: "lead.created",
          eventId: true,
        },
        {
          teamId: other.id,
          kind: "email",
          endpointId: null,
          chatDestinationId: null,
          leadId,
          eventType: "lead.created",
          state: "pending",
          attempts: 0,
          maxAttempts: rows[1]!.maxAttempts,
          runAt: now,
          lockedBy: null,
          lockedUntil: null,
          lastError: null,
          createdAt: now,
          finishedAt: null,
          id: true,
          payload: "email",
          eventId: true,
        },
      ],
    );
    const webhook = JSON.parse(rows[0]!.payload) as { data: { team: { slug: string }; lead: { id: string; source: string } } };
    assert.equal(webhook.data.team.slug, "hot-path-events");
    assert.equal(webhook.data.lead.id, leadId);
    assert.deepEqual(await db().spentChallenge.findUniqueOrThrow({ where: { id: "nonce-parity" } }), { id: "nonce-parity", expiresAt });
    // The requested source did not exist: the team's API source.
    const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId }, include: { source: true } });
    assert.equal(lead.source.name, "API");
  });

  // SQLite gives the number back; PostgreSQL's sequence never does (a gap, never a reuse: docs/api.md "Lead ids").
  test("a replayed challenge or a lost claim rolls everything back: no lead, no log row, no job, no id used (SQLite) or reused (PostgreSQL)", async () => {
    const last = () => lastLeadNumber(db());
    const counter = async () => (database.provider === "sqlite" ? await last() : 0);
    const numberBefore = await last();
    const before = { counter: await counter(), leads: await db().lead.count(), requests: await db().apiRequest.count() };
    await db().spentChallenge.create({ data: { id: "nonce-spent", expiresAt: new Date(Date.now() + 60_000) } });
    const base = {
      lead: { ...fc.sample(leadFields.filter(storable), 1)[0]!, firstName: "Rolled" },
      source: { chosen: source },
      requestLog: { apiKeyId: null, formId: "form_abc", ip: null, encoding: "json" as const },
      events: { origin: { apiKeyId: null, formId: "form_abc" }, emails: false },
      now: new Date(),
    };
    await assert.rejects(
      writeLead({ ...base, spentChallenge: { id: "nonce-spent", expiresAt: new Date(), replayed: () => new Error("replayed") } }),
      /replayed/,
    );
    await assert.rejects(
      writeLead({
        ...base,
        claim: { id: "no-such-claim", token: "t", response: () => ({ status: 201, body: "{}" }), lost: () => new Error("claim lost") },
      }),
      /claim lost/,
    );
    assert.deepEqual({ counter: await counter(), leads: await db().lead.count(), requests: await db().apiRequest.count() }, before);
    const spent = await last();
    assert.ok(spent >= numberBefore && spent <= numberBefore + 2, `${spent} after ${numberBefore}`);
  });
});
