import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { untilOneWaitsOnLock } from "../../test/support/lock-waits";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { driver } from "../db/driver";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import type { BatchOutcome, LeadWrite } from "./lead-write";
import { writeLeadsPostgres } from "./lead-writer-postgres";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";

// The outbox rows of a PostgreSQL batch (lib/leads/lead-writer-postgres.ts, outboxInsertSql):
// written in one statement before the COMMIT, only for the leads that stay; a destination
// deleted while the batch writes costs its delivery, never the lead.

await useTestDatabase({ provider: "postgres" });
const team = await createTeam({ slug: "outbox", name: "Outbox" });
const source = await resolveLeadSource(team.id);
const fields = fc.sample(leadFieldsOf(team.id).filter(storableOn("postgres")), 3);
const endpointOf = (url: string) =>
  db().webhookEndpoint.create({ data: { teamId: team.id, url, events: "lead.created", secretCiphertext: "x" } });
const chatOf = (name: string) =>
  db().chatDestination.create({ data: { teamId: team.id, platform: "slack", urlCiphertext: "x", maskedUrl: "x", name } });

const writeOf = (i: number, lost = false): LeadWrite => ({
  lead: fields[i]!,
  source: { chosen: source },
  events: { origin: { apiKeyId: null }, emails: false },
  now: new Date(),
  claim: lost
    ? { id: "no-such-claim", token: "t", response: () => ({ status: 201, body: "{}" }), lost: () => new Error(`claim ${i} lost`) }
    : null,
});
const leadIdOf = (outcome: BatchOutcome | undefined) => {
  assert.ok(outcome && "written" in outcome, `a written lead, not ${String(outcome && "error" in outcome ? outcome.error : outcome)}`);
  return outcome.written.leadId;
};
const jobsOf = (leadId: string) =>
  db().job.findMany({ where: { leadId }, select: { kind: true, endpointId: true, chatDestinationId: true }, orderBy: { kind: "asc" } });

describe("a PostgreSQL batch's outbox rows", () => {
  test("every lead that stays gets its delivery to each destination; a lead rolled back to its savepoint takes its rows with it", async () => {
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    const endpoint = await endpointOf("https://hooks.example.test/one");
    const chat = await chatOf("one");
    try {
      const outcomes = await writeLeadsPostgres(d.pool, [writeOf(0), writeOf(1, true), writeOf(2)]);
      assert.ok("error" in outcomes[1]! && String(outcomes[1].error) === "Error: claim 1 lost");
      for (const outcome of [outcomes[0], outcomes[2]]) {
        assert.deepEqual(await jobsOf(leadIdOf(outcome)), [
          { kind: "chat", endpointId: null, chatDestinationId: chat.id },
          { kind: "webhook", endpointId: endpoint.id, chatDestinationId: null },
        ]);
      }
      assert.equal(await db().job.count({ where: { teamId: team.id } }), 4, "no row for the lead rolled back");
    } finally {
      await db().webhookEndpoint.delete({ where: { id: endpoint.id } });
      await db().chatDestination.delete({ where: { id: chat.id } });
    }
  });

  test("an endpoint and a chat destination deleted while the batch writes: the lead is kept, with the deliveries of those that remain", async () => {
    const d = await driver();
    assert.equal(d.provider, "postgres");
    if (d.provider !== "postgres") return;
    const [gone, kept] = [await endpointOf("https://hooks.example.test/gone"), await endpointOf("https://hooks.example.test/kept")];
    const goneChat = await chatOf("gone");
    const deleter = await d.pool.connect();
    try {
      // The delete is under way (its rows locked) when the batch reads the destinations, and commits while the batch waits for them.
      await deleter.query("BEGIN");
      await deleter.query(`DELETE FROM "WebhookEndpoint" WHERE "id" = $1`, [gone.id]);
      await deleter.query(`DELETE FROM "ChatDestination" WHERE "id" = $1`, [goneChat.id]);
      let ended = false;
      const batch = writeLeadsPostgres(d.pool, [writeOf(0)]).finally(() => (ended = true));
      await untilOneWaitsOnLock(d.pool, () => ended, "the batch did not wait for the deletes under way");
      await deleter.query("COMMIT");
      const leadId = leadIdOf((await batch)[0]);
      assert.equal(await db().lead.count({ where: { id: leadId } }), 1);
      assert.deepEqual(await jobsOf(leadId), [{ kind: "webhook", endpointId: kept.id, chatDestinationId: null }]);
    } finally {
      await deleter.query("ROLLBACK").catch(() => undefined);
      deleter.release();
      await db().webhookEndpoint.deleteMany({ where: { teamId: team.id } });
    }
  });
});
