import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { rawJson } from "../db/raw-json";
import { writeLead } from "./lead-writer";
import { leadFieldsOf, modelFields, storableOn } from "./lead-writer.fixtures";
import { searchKeys, type NewLead } from "./new-lead";
import { resolveLeadSource } from "../teams/lead-sources";
import { addMember, createTeam } from "../teams/team-store";

// The lead writer writes with its own SQL (lib/leads/lead-writer.ts). These tests keep it
// honest against Prisma, which owns the schema: what it writes (generated leads, the
// request-log row, the outbox rows, the spent challenge) reads back through Prisma exactly
// as Prisma's own write of the same values does, and a replayed challenge or a lost claim
// rolls everything back. Its column lists: lead-writer-columns.test.ts.

const database = await useTestDatabase();
// Every top-level await comes before the first describe: node:test may run a file's suites
// (and then its cleanup) while the module is still evaluating.
const team = await createTeam({ slug: "hot-path", name: "Hot path" });
const source = await resolveLeadSource(team.id);
const leadFields = leadFieldsOf(team.id);
const storable = storableOn(database.provider);

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
        const viaPrisma = `CRM-LEAD-P${++seq}`;
        const lead: NewLead = { ...fields, sourceId: source.id, currency: written.currency };
        await db().lead.create({
          data: { ...lead, ...searchKeys(lead), id: viaPrisma, seq, createdAt: now, extraFields: rawJson(lead.extraFields) },
        });
        const [hot, reference] = await Promise.all([
          db().lead.findUniqueOrThrow({ where: { id: written.leadId } }),
          db().lead.findUniqueOrThrow({ where: { id: viaPrisma } }),
        ]);
        for (const field of modelFields("Lead")) {
          if (field === "id" || field === "seq") continue;
          assert.deepEqual(
            (hot as Record<string, unknown>)[field],
            (reference as Record<string, unknown>)[field],
            `${field} differs between the hot path and Prisma`,
          );
        }
        assert.equal(hot.seq, Number(written.leadId.slice("CRM-LEAD-".length)));
      }),
      { numRuns: 60 },
    );
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

  test("a replayed challenge or a lost claim rolls everything back: no lead, no log row, no job, no id used", async () => {
    const counter = async () => (await db().counter.findUniqueOrThrow({ where: { name: "lead" } })).value;
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
  });
});
