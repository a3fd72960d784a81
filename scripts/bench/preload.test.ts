import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../../lib/db/client";
import { createLead } from "../../lib/leads/create-lead";
import { countLeads, findLead } from "../../lib/leads/lead-store";
import { lastLeadNumber } from "../../lib/leads/lead-number-store";
import { resolveLeadSource } from "../../lib/teams/lead-sources";
import { createTeam } from "../../lib/teams/team-store";
import { preload } from "./preload";

const database = await useTestDatabase();

const team = await createTeam({ slug: "bulk", name: "Bulk" });
const other = await createTeam({ slug: "other", name: "Other" });
const source = await resolveLeadSource(team.id);
const target = { teamId: team.id, sourceId: source.id, apiKeyId: "0123456789abcdef0123", currency: "EUR" };

async function leadIndexes(): Promise<unknown[]> {
  if (database.provider === "postgres") {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Lead' ORDER BY indexname`,
      );
      return result.rows;
    } finally {
      await client.end();
    }
  }
  const file = new Database(database.file!, { readonly: true });
  try {
    return file.prepare(`SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Lead' ORDER BY "name"`).all();
  } finally {
    file.close();
  }
}

describe("preload", () => {
  test("tops the team up to the total, keeps ids unique after it, and leaves the indexes as they were", async () => {
    const before = await createLead({
      team: { id: other.id, defaultPhoneCountry: null },
      apiKeyId: null,
      input: { name: "Before", extraFields: {} },
    });
    assert.equal(before.leadId, "CRM-LEAD-00001");
    const indexes = await leadIndexes();

    const loaded = await preload(database.url, target, 2_000);
    assert.equal(loaded.inserted, 2_000);
    assert.equal(await countLeads(team.id), 2_000);
    assert.equal(await countLeads(other.id), 1);
    assert.deepEqual(await leadIndexes(), indexes);
    assert.ok(indexes.length >= 7, "the Lead indexes are listed");
    assert.equal(await lastLeadNumber(db()), 2_001);

    // Rows the app can read, in the app's formats.
    const first = await findLead({ id: "CRM-LEAD-00002", teamId: team.id });
    assert.ok(first);
    assert.equal(first.seq, 2);
    assert.equal(first.currency, "EUR");
    assert.equal(first.emailKey, first.email);
    assert.ok(first.createdAt instanceof Date && !Number.isNaN(first.createdAt.getTime()));
    assert.deepEqual(first.extraFields, { form: "contact", ref: 2 });
    assert.equal(first.source.name, "API");
    // Whole numbers in the generated text (bound as REAL, SQLite wrote 'campaign-2.0', and the
    // bench's UTM-filter and email-search rows matched nothing).
    assert.deepEqual([first.utmCampaign, first.email], ["campaign-2", "lead2@example2.com"]);

    const after = await createLead({
      team: { id: team.id, defaultPhoneCountry: null },
      apiKeyId: null,
      input: { name: "After", extraFields: {} },
    });
    assert.equal(after.leadId, "CRM-LEAD-02002");
  });

  test("does nothing when the team already holds the total", async () => {
    const held = await countLeads(team.id);
    assert.deepEqual(await preload(database.url, target, held), { inserted: 0, seconds: 0 });
    assert.equal(await countLeads(team.id), held);
  });
});
