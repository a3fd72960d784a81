import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { formatLeadId, leadIdSql } from "./lead-id";
import { raiseLeadNumber } from "./lead-number-store";
import { writeLead, writeLeadBatch } from "./lead-writer";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";

// The lead writer's counter and id format (lib/leads/lead-writer.ts, lead-id.ts): one lead, a
// batch and the next lead take consecutive ids past 99999 through writeLead and
// writeLeadBatch alike, PostgreSQL's id expression formats every seq as formatLeadId does,
// and a team that lost its API source gets it back, once.

const database = await useTestDatabase();
// Every top-level await comes before the first describe: node:test may run a file's suites
// (and then its cleanup) while the module is still evaluating.
const team = await createTeam({ slug: "hot-path", name: "Hot path" });
const source = await resolveLeadSource(team.id);
const leadFields = leadFieldsOf(team.id);
const storable = storableOn(database.provider);

describe("the counter and the id format: one lead, a batch and the next lead take consecutive ids", () => {
  test("past 99999 the id grows a digit, the same through writeLead (SQL on PostgreSQL) and writeLeadBatch", async () => {
    await raiseLeadNumber(db(), 99_997);
    const [fields] = fc.sample(leadFields.filter(storable), 1);
    const one = () =>
      writeLead({ lead: fields!, source: { chosen: source }, events: { origin: { apiKeyId: null }, emails: false }, now: new Date() });
    const first = (await one()).leadId;
    const batch = await db().$transaction((tx) =>
      writeLeadBatch(
        tx,
        [1, 2].map(() => ({ ...fields!, sourceId: source.id, currency: "USD" })),
      ),
    );
    const last = (await one()).leadId;
    assert.deepEqual([first, ...batch, last], ["CRM-LEAD-99998", "CRM-LEAD-99999", "CRM-LEAD-100000", "CRM-LEAD-100001"]);
    const stored = await db().lead.findMany({ where: { id: { in: [first, ...batch, last] } }, select: { id: true, seq: true } });
    for (const { id, seq } of stored) assert.equal(id, formatLeadId(seq));
  });

  test("a team without its API source: the writer makes it once and the lead gets it (requested or unknown source)", async () => {
    const lost = await createTeam({ slug: "hot-path-lost-source", name: "Lost source" });
    await db().leadSource.deleteMany({ where: { teamId: lost.id } });
    const [fields] = fc.sample(leadFields.filter(storable), 1);
    const write = (requested: string | undefined) =>
      writeLead({
        lead: { ...fields!, teamId: lost.id },
        source: { requested },
        events: { origin: { apiKeyId: null }, emails: false },
        now: new Date(),
      });
    const [first, second] = await Promise.all([write("Trade fair"), write(undefined)]);
    assert.ok(!first.added && !first.quarantined && !second.added && !second.quarantined, "new leads");
    assert.equal(first.source.name, "API");
    assert.equal(second.source.id, first.source.id);
    const sources = await db().leadSource.findMany({ where: { teamId: lost.id } });
    assert.deepEqual(
      sources.map((s) => s.name),
      ["API"],
    );
    const stored = await db().lead.findMany({ where: { teamId: lost.id }, select: { sourceId: true } });
    assert.deepEqual(
      stored.map((lead) => lead.sourceId),
      [first.source.id, first.source.id],
    );
  });

  // SQLite's statements take the id from formatLeadId itself; PostgreSQL's compute it in SQL.
  if (database.provider === "postgres") {
    test("PostgreSQL's id expression formats every seq exactly as formatLeadId", async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 2_147_483_647 })), async (seq) => {
          const [row] = await db().$queryRawUnsafe<{ id: string }[]>(`SELECT ${leadIdSql("$1::int4")} AS "id"`, seq);
          assert.equal(row!.id, formatLeadId(seq));
        }),
        { numRuns: 200, examples: [[0], [1], [9_999], [99_999], [100_000], [2_147_483_647]] },
      );
    });
  }
});
