import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { db } from "../db/client";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { useTestDatabase } from "../testing/test-database";
import { parseLeadId } from "./lead-id";
import { insertLead, type NewLead } from "./lead-store";

// Lead ids on the database in force (SQLite, and PostgreSQL under `npm test`):
// concurrent inserts never share a number, and a failed insert leaves no gap.

// 60 transactions queue for 10 pooled connections and one counter row lock: on a
// loaded 2-core machine the wait can pass the 3 s default meant for production.
process.env.DB_CONNECT_TIMEOUT_MS = "30000";
const database = await useTestDatabase();

let teamId = "";
let sourceId = "";

before(async () => {
  const team = await createTeam({ slug: `ids-${randomBytes(4).toString("hex")}`, name: "Ids" });
  teamId = team.id;
  sourceId = (await resolveLeadSource(team.id)).id;
});

after(() => db().$disconnect());

function lead(overrides: Partial<NewLead> = {}): NewLead {
  return {
    teamId,
    apiKeyId: null,
    firstName: "Ada",
    lastName: null,
    email: null,
    phone: null,
    phoneCountryCode: null,
    phoneNational: null,
    mobileNo: null,
    mobileCountryCode: null,
    mobileNational: null,
    organization: "Ada",
    sourceId,
    jobTitle: null,
    website: null,
    territory: null,
    industry: null,
    annualRevenue: null,
    noOfEmployees: null,
    currency: "USD",
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    extraFields: {},
    ...overrides,
  };
}

async function counterValue(): Promise<number> {
  const counter = await db().counter.findUniqueOrThrow({ where: { name: "lead" } });
  return counter.value;
}

test(`${database.provider}: 60 concurrent inserts get 60 distinct, consecutive ids`, async () => {
  const start = await counterValue();
  const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => insertLead(lead({ firstName: `Lead${i}` }))));
  const seqs = ids.map((id) => parseLeadId(id)!).sort((a, b) => a - b);
  assert.equal(new Set(ids).size, 60);
  assert.deepEqual(seqs, Array.from({ length: 60 }, (_, i) => start + 1 + i));
  assert.equal(await counterValue(), start + 60);
  assert.equal(await db().lead.count({ where: { teamId } }), 60);
});

test(`${database.provider}: a failed insert rolls its number back (no gap, no partial row)`, async () => {
  const start = await counterValue();
  // An unknown source violates the foreign key inside the allocation transaction.
  await assert.rejects(insertLead(lead({ sourceId: "no-such-source" })));
  assert.equal(await counterValue(), start);
  const next = await insertLead(lead());
  assert.equal(parseLeadId(next), start + 1);
});
