import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { clientFor, db } from "../db/client";
import { rawJson } from "../db/raw-json";
import { migrate } from "../setup/migrate";
import { lastLeadNumber } from "../leads/lead-number-store";
import { writeLead } from "../leads/lead-writer";
import { leadFieldsOf, storableOn } from "../leads/lead-writer.fixtures";
import { CopyRefused, copyDatabase, delegate, models } from "./copy-database";

// Issue 15: SQLite → PostgreSQL keeps every row. The target is this file's PostgreSQL
// database; the source a fresh SQLite file filled with every kind of row.
const target = await useTestDatabase({ provider: "postgres" });
const sourceUrl = `file:${path.join(mkdtempSync(path.join(tmpdir(), "lead-intake-copy-")), "source.db")}`;
migrate({ ...process.env, DATABASE_URL: sourceUrl });
const source = clientFor(sourceUrl, "sqlite");

async function fill(): Promise<void> {
  const user = await source.user.create({ data: { email: "ana@example.com", name: "Ana", passwordHash: "$argon2id$v=19$x" } });
  const team = await source.team.create({ data: { slug: "acme", name: "Acme", defaultPhoneCountry: "GB" } });
  await source.membership.create({ data: { userId: user.id, teamId: team.id, role: "owner" } });
  await source.invite.create({
    data: { teamId: team.id, email: "bo@example.com", role: "member", tokenDigest: "d1", expiresAt: new Date(Date.now() + 86_400_000) },
  });
  const api = await source.leadSource.create({ data: { teamId: team.id, name: "API", nameKey: "api" } });
  await source.apiKey.create({
    data: { id: "0123456789abcdef0123", teamId: team.id, secretDigest: "digest", secretPrefix: "AbCdEfGh", description: "Site" },
  });
  await source.pendingSecret.create({ data: { apiKeyId: "0123456789abcdef0123", ciphertext: "cipher" } });
  // 50 numbers past the last lead: leads deleted since; the copy never issues them again.
  await source.counter.update({ where: { name: "lead" }, data: { value: 1_250 } });
  for (let i = 1; i <= 1_200; i++) {
    await source.lead.create({
      data: {
        id: `CRM-LEAD-${String(i).padStart(5, "0")}`,
        seq: i,
        teamId: team.id,
        firstName: `Lead${i}`,
        lastName: i % 2 ? "Díaz" : null,
        email: `lead${i}@example.com`,
        emailKey: `lead${i}@example.com`,
        organization: "Acme",
        sourceId: api.id,
        currency: "USD",
        skippedPhone: i % 7 ? null : "12345",
        extraFields: rawJson(i === 1 ? JSON.parse('{"__proto__":"p","$type":"x","interests":["a","b"],"n":3,"ok":true}') : { ref: i }),
        apiKeyId: "0123456789abcdef0123",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      },
    });
  }
  await source.auditEvent.create({
    data: {
      teamId: team.id,
      action: "api_key.generated",
      via: "cli",
      targetId: "0123456789abcdef0123",
      details: rawJson({ description: "Site" }),
    },
  });
  await source.auditEvent.create({
    data: { teamId: team.id, action: "member.removed", via: "web", actorUserId: user.id, ip: "192.0.2.1" },
  });
  await source.idempotencyRecord.create({
    data: {
      apiKeyId: "0123456789abcdef0123",
      key: "k1",
      fingerprint: "f",
      token: "t",
      lockedAt: new Date(),
      responseStatus: 201,
      responseBody: "{}",
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  // Rows that refer to a model declared near them: a chat job to its destination (declared
  // before Job), a web form to its consent version, evidence to its lead and version, a
  // double opt-in email to its lead.
  const chat = await source.chatDestination.create({
    data: { teamId: team.id, platform: "slack", urlCiphertext: "sealed", maskedUrl: "https://hooks.slack.com/services/T…", name: "#sales" },
  });
  await source.job.create({
    data: {
      id: "job_chat_1",
      teamId: team.id,
      kind: "chat",
      chatDestinationId: chat.id,
      eventId: "msg_1",
      eventType: "lead.created",
      payload: "{}",
      maxAttempts: 5,
      runAt: new Date(Date.UTC(2026, 0, 2)),
    },
  });
  const version = await source.consentVersion.create({
    data: {
      id: "cv_1",
      teamId: team.id,
      formId: "form_1",
      number: 1,
      text: "Email me",
      purpose: "Marketing emails",
      required: false,
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    },
  });
  await source.webForm.create({
    data: { id: "form_1", teamId: team.id, name: "Contact", allowedOrigins: rawJson([]), consentVersionId: version.id, doubleOptIn: true },
  });
  await source.consentConfirmation.create({
    data: {
      id: "cc_1",
      teamId: team.id,
      leadId: "CRM-LEAD-00001",
      emailKey: "ada@example.com",
      tokenHash: "0".repeat(64),
      createdAt: new Date(Date.UTC(2026, 0, 1)),
      expiresAt: new Date(Date.UTC(2026, 0, 5)),
      confirmedAt: new Date(Date.UTC(2026, 0, 2)),
    },
  });
  await source.leadConsent.create({
    data: {
      id: "lc_1",
      leadId: "CRM-LEAD-00001",
      teamId: team.id,
      status: "given",
      channel: "form",
      versionId: version.id,
      consentAt: new Date(Date.UTC(2026, 0, 1)),
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    },
  });
  for (let i = 0; i < 5; i++) {
    await source.apiRequest.create({
      data: { teamId: team.id, apiKeyId: "0123456789abcdef0123", status: 201, leadId: "CRM-LEAD-00001", ip: "192.0.2.1", encoding: "json" },
    });
  }
}

const byKey = (rows: Record<string, unknown>[], key: string) =>
  [...rows].sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : 1)).map((row) => JSON.parse(JSON.stringify(row)));

test("every row of every table arrives, field by field; sequences continue after the copied ids", async () => {
  await fill();
  const report = await copyDatabase(sourceUrl, target.url);
  assert.equal(report.find((t) => t.table === "Lead")?.rows, 1_200);

  for (const model of models(source)) {
    const key = model.fields[0]!.name;
    const read = (client: object) => delegate(client, model.name).findMany({ take: 100_000, orderBy: { [key]: "asc" } });
    const [from, to] = await Promise.all([read(source), read(db())]);
    assert.equal(to.length, from.length, `${model.name}: row count`);
    assert.deepEqual(byKey(to, key), byKey(from, key), `${model.name}: rows differ`);
  }
  const first = await db().lead.findUniqueOrThrow({ where: { id: "CRM-LEAD-00001" } });
  assert.equal(Object.getOwnPropertyDescriptor(first.extraFields as object, "__proto__")?.value, "p");

  // Lead numbers go on after the source's last one issued (PostgreSQL: the sequence).
  assert.equal(await lastLeadNumber(db()), 1_250);
  const [team] = await db().team.findMany();
  const created = await writeLead({
    lead: fc.sample(leadFieldsOf(team!.id).filter(storableOn("postgres")), 1)[0]!,
    source: { requested: undefined },
    events: { origin: { apiKeyId: null }, emails: false },
    now: new Date(),
  });
  assert.equal(created.leadId, "CRM-LEAD-01251");

  // The request log's ids go on after the copied ones.
  const next = await db().apiRequest.create({ data: { teamId: "t", apiKeyId: "k", status: 422, ip: null, encoding: "json" } });
  assert.equal(next.id, 6);
});

test("a target that already holds leads or users is refused and left as it is", async () => {
  await assert.rejects(copyDatabase(sourceUrl, target.url), CopyRefused);
  assert.equal(await db().lead.count(), 1_201, "the copied leads and the one written after the copy");
  await source.$disconnect();
});
