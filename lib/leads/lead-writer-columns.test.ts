import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import {
  API_REQUEST_COLUMNS,
  CONNECTION_DELIVERY_COLUMNS,
  DEFAULTED_API_REQUEST_COLUMNS,
  DEFAULTED_CONNECTION_DELIVERY_COLUMNS,
  DEFAULTED_JOB_COLUMNS,
  DEFAULTED_LEAD_COLUMNS,
  JOB_COLUMNS,
  LEAD_BATCH_COLUMNS,
  LEAD_COLUMNS,
  LEAD_SUBMISSION_COLUMNS,
  LEAD_CONSENT_COLUMNS,
  NEW_LEAD_DEFAULTED_COLUMNS,
  SPENT_CHALLENGE_COLUMNS,
} from "./lead-columns";
import { NEW_LEAD_STATUS } from "./lead-status";
import { writeLead, writeLeadBatch } from "./lead-writer";
import { leadFieldsOf, modelFields, storableOn } from "./lead-writer.fixtures";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";

// The lead writer writes with its own SQL (lib/leads/lead-writer.ts). These tests keep its
// column lists (lib/leads/lead-columns.ts) honest against Prisma, which owns the schema:
// every column of every model it writes is either written or deliberately left to its
// default, and a column left to its default is nullable or has a default in the database.
// What it writes reads back as Prisma's own write: lead-writer-parity.test.ts.

const database = await useTestDatabase();
// Every top-level await comes before the first describe (node:test may run the suites first).
const team = await createTeam({ slug: "columns", name: "Columns" });
const source = await resolveLeadSource(team.id);

/** Columns of the table that are NOT NULL and have no default in the database itself. */
async function requiredWithoutDefault(table: string): Promise<string[]> {
  if (database.provider === "postgres") {
    const rows = await db().$queryRawUnsafe<{ name: string }[]>(
      `SELECT column_name::text AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 AND is_nullable = 'NO' AND column_default IS NULL`,
      table,
    );
    return rows.map((r) => r.name).sort();
  }
  const rows = await db().$queryRawUnsafe<{ name: string; notnull: number | bigint; dflt_value: string | null; pk: number | bigint }[]>(
    `SELECT "name", "notnull", "dflt_value", "pk" FROM pragma_table_info('${table}')`,
  );
  // An INTEGER PRIMARY KEY is the rowid: it needs no value.
  return rows
    .filter((r) => Number(r.notnull) === 1 && r.dflt_value === null && !(Number(r.pk) === 1 && table === "ApiRequest"))
    .map((r) => r.name)
    .sort();
}

describe("the hot path covers every column Prisma's schema has (a schema change cannot be missed)", () => {
  const models: [string, Record<string, string>, readonly string[]][] = [
    ["Lead", LEAD_COLUMNS, DEFAULTED_LEAD_COLUMNS],
    ["LeadSubmission", LEAD_SUBMISSION_COLUMNS, []],
    ["LeadConsent", LEAD_CONSENT_COLUMNS, []],
    ["ApiRequest", API_REQUEST_COLUMNS, DEFAULTED_API_REQUEST_COLUMNS],
    ["Job", JOB_COLUMNS, DEFAULTED_JOB_COLUMNS],
    ["SpentChallenge", SPENT_CHALLENGE_COLUMNS, []],
    ["ConnectionDelivery", CONNECTION_DELIVERY_COLUMNS, DEFAULTED_CONNECTION_DELIVERY_COLUMNS],
  ];
  for (const [model, written, defaulted] of models) {
    test(`${model}: every scalar field is written or listed as defaulted, and nothing else`, () => {
      assert.deepEqual(
        [...Object.keys(written), ...defaulted].sort(),
        modelFields(model),
        `lib/leads/lead-columns.ts must list each new column of ${model} as written or defaulted`,
      );
    });
    test(`${model}: a column left to its default is nullable or has a default in the database`, async () => {
      const missing = (await requiredWithoutDefault(model)).filter((column) => !(column in written));
      assert.deepEqual(missing, []);
    });
  }
  test("Lead: an import's batch insert (the other raw Lead writer) writes every column but a merge's and a new lead's defaults", () => {
    assert.deepEqual(
      [...Object.keys(LEAD_BATCH_COLUMNS), "mergedLeadIds", ...NEW_LEAD_DEFAULTED_COLUMNS].sort(),
      modelFields("Lead"),
      "lib/leads/lead-columns.ts LEAD_BATCH_COLUMNS must write each new column of Lead",
    );
  });
});

test("a new lead, one or an import's batch, is New, unassigned and never contacted: the defaults of the columns left out", async () => {
  const fields = fc.sample(leadFieldsOf(team.id).filter(storableOn(database.provider)), 1)[0]!;
  const one = await writeLead({
    lead: { ...fields, firstName: "One" },
    source: { chosen: source },
    events: { origin: {}, emails: false },
    now: new Date(),
  });
  const batch = await db().$transaction((tx) =>
    writeLeadBatch(tx, [{ ...fields, firstName: "Batch", sourceId: source.id, currency: "USD", importId: null }]),
  );
  const rows = await db().lead.findMany({
    where: { id: { in: [one.leadId, ...batch] } },
    select: { status: true, ownerId: true, assignedAt: true, firstContactedAt: true },
  });
  const fresh = { status: NEW_LEAD_STATUS, ownerId: null, assignedAt: null, firstContactedAt: null };
  assert.deepEqual(rows, [fresh, fresh]);
});
