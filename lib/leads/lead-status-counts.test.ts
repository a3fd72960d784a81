import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { addLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { EMPTY_FILTER, resolveOwner, type LeadFilter } from "./lead-filter";
import { listLeads } from "./lead-list-store";
import { makeUser } from "./lead-ownership.fixtures";
import { countLeadsByStatus, statusCountsQuery, type StatusCounts } from "./lead-status-counts";
import { LEAD_STATUSES, type LeadStatus } from "./lead-status";
import { equalityFilters } from "./lead-store";

// The lead list's per-status views: each status's count of the list's filter without its
// status, capped, on both databases; and on SQLite the index each count reads.

const database = await useTestDatabase();

const team = await createTeam({ slug: "status-counts", name: "Status counts", defaultPhoneCountry: "GB" });
const other = await createTeam({ slug: "status-counts-other", name: "Other" });
const webinar = await addLeadSource(team.id, "Webinar");
const ada = await makeUser("Ada Owner");
const bob = await makeUser("Bob Owner");

async function lead(teamId: string, name: string, extra: { email?: string; source?: string; createdAt?: string } = {}) {
  const { leadId } = await createLead({
    team: { id: teamId, defaultPhoneCountry: "GB" },
    apiKeyId: null,
    input: { extraFields: {}, name, ...(extra.email ? { email: extra.email } : {}), ...(extra.source ? { source: extra.source } : {}) },
  });
  if (extra.createdAt) await db().lead.update({ where: { id: leadId }, data: { createdAt: new Date(extra.createdAt) } });
  return leadId;
}
const set = (id: string, data: { status?: LeadStatus; ownerId?: string | null }) => db().lead.update({ where: { id }, data });

// Ten leads of the team: [name, status, owner, webinar?, email, created].
const PLAN: [string, LeadStatus, string | null, boolean, string | null, string][] = [
  ["Amy New", "new", null, false, "same@example.com", "2026-01-05"],
  ["Amos New", "new", null, true, null, "2026-02-05"],
  ["Ann New", "new", ada.id, false, null, "2026-03-05"],
  ["Abe Contacted", "contacted", ada.id, true, "same@example.com", "2026-03-06"],
  ["Cal Contacted", "contacted", bob.id, false, null, "2026-04-05"],
  ["Cat Contacted", "contacted", null, false, null, "2026-04-06"],
  ["Ned Nurture", "nurture", ada.id, false, null, "2026-05-05"],
  ["Quin Qualified", "qualified", bob.id, true, null, "2026-05-06"],
  ["Joe Junk", "junk", null, false, null, "2026-06-05"],
  ["Jan Junk", "junk", ada.id, false, null, "2026-06-06"],
];
const ids: string[] = [];
for (const [name, status, ownerId, fromWebinar, email, day] of PLAN) {
  const id = await lead(team.id, name, {
    ...(email ? { email } : {}),
    ...(fromWebinar ? { source: "Webinar" } : {}),
    createdAt: `${day}T12:00:00Z`,
  });
  await set(id, { status, ownerId });
  ids.push(id);
}
// Another team's leads, of the same owner and statuses: never counted.
for (const status of ["new", "contacted", "junk"] as const)
  await set(await lead(other.id, "Amy Other", { email: "same@example.com" }), { status, ownerId: ada.id });

const counts = (values: Partial<Record<LeadStatus, number>>, capped = false): StatusCounts =>
  Object.fromEntries(LEAD_STATUSES.map((status) => [status, { count: values[status] ?? 0, capped }])) as StatusCounts;
const byStatus = (filter: Partial<LeadFilter>, cap = 100) => countLeadsByStatus(team, { ...EMPTY_FILTER, ...filter }, cap);

test("each status is counted in the filter without its status, never another team's lead", async () => {
  assert.deepEqual(await byStatus({}), counts({ new: 3, contacted: 3, nurture: 1, qualified: 1, junk: 2 }));
  assert.deepEqual(await byStatus({ status: "junk" }), await byStatus({}), "the filter's own status is ignored");
  assert.deepEqual(await byStatus({ status: "junk", query: "a" }), await byStatus({ query: "a" }), "in a search too");
  assert.deepEqual(await byStatus({ owner: "none" }), counts({ new: 2, contacted: 1, junk: 1 }));
  assert.deepEqual(await byStatus({ owner: ada.id, status: "new" }), counts({ new: 1, contacted: 1, nurture: 1, junk: 1 }));
  assert.deepEqual(await byStatus(resolveOwner({ ...EMPTY_FILTER, owner: "me" }, bob.id)), counts({ contacted: 1, qualified: 1 }));
  assert.deepEqual(await byStatus({ owner: "me" }), counts({}), "an unresolved me matches no lead");
  assert.deepEqual(await byStatus({ sourceId: webinar.id }), counts({ new: 1, contacted: 1, qualified: 1 }));
  assert.deepEqual(await byStatus({ sourceId: webinar.id, owner: "none" }), counts({ new: 1 }));
  assert.deepEqual(await byStatus({ query: "a" }), counts({ new: 3, contacted: 1 }), "a search");
  assert.deepEqual(await byStatus({ query: "c", owner: "none" }), counts({ contacted: 1 }), "a search inside the owner filter");
  assert.deepEqual(
    await byStatus({ createdFrom: "2026-04-01", createdTo: "2026-05-31" }),
    counts({ contacted: 2, nurture: 1, qualified: 1 }),
  );
  assert.deepEqual(await byStatus({ duplicatesOnly: true }), counts({ new: 1, contacted: 1 }), "never a duplicate in another team");
  assert.deepEqual(await byStatus({ duplicatesOnly: true, owner: ada.id }), counts({ contacted: 1 }));
  assert.deepEqual(await countLeadsByStatus(other, EMPTY_FILTER, 100), counts({ new: 1, contacted: 1, junk: 1 }));
});

test("equality filters count each status no further than the cap", async () => {
  assert.deepEqual(await byStatus({}, 2), {
    ...counts({ new: 2, contacted: 2, nurture: 1, qualified: 1, junk: 2 }),
    new: { count: 2, capped: true },
    contacted: { count: 2, capped: true },
  });
  assert.deepEqual(await byStatus({ owner: ada.id }, 1), counts({ new: 1, contacted: 1, nurture: 1, junk: 1 }));
  assert.deepEqual(await byStatus({}, 0), {
    ...counts({}, true),
    unqualified: { count: 0, capped: false },
  });
});

test("a search, a date range or duplicates only tally the newest cap + 1 matches: beyond, every count is a lower bound", async () => {
  // "a" matches Amy, Amos, Ann (new) and Abe (contacted); the newest three are Abe, Ann, Amos.
  assert.deepEqual(await byStatus({ query: "a" }, 4), counts({ new: 3, contacted: 1 }));
  assert.deepEqual(await byStatus({ query: "a" }, 3), counts({ new: 2, contacted: 1 }, true));
  assert.deepEqual(await byStatus({ createdTo: "2026-03-31" }, 2), counts({ new: 1, contacted: 1 }, true));
  assert.deepEqual(await byStatus({ duplicatesOnly: true }, 1), counts({ contacted: 1 }, true));
  // No index holds a source with the status: its newest matches are tallied too.
  const bySource = await byStatus({ sourceId: webinar.id }, 2);
  assert.equal(
    LEAD_STATUSES.reduce((sum, status) => sum + bySource[status].count, 0),
    2,
  );
  assert.ok(LEAD_STATUSES.every((status) => bySource[status].capped));
});

test("every count agrees with the list of that status, for any statuses, owners and filter (property)", async () => {
  const owners = [null, ada.id, bob.id] as const;
  const filters = fc.record({
    status: fc.constantFrom(null, ...LEAD_STATUSES),
    owner: fc.constantFrom(null, "none", ada.id, bob.id),
    sourceId: fc.constantFrom(null, webinar.id),
    query: fc.constantFrom("", "a", "c", "j"),
    createdFrom: fc.constantFrom(null, "2026-03-01"),
    duplicatesOnly: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom(...LEAD_STATUSES), fc.constantFrom(...owners)), { minLength: ids.length, maxLength: ids.length }),
      filters,
      fc.integer({ min: 0, max: 11 }),
      async (rows, picked, cap) => {
        for (const [i, [status, ownerId]] of rows.entries()) await set(ids[i]!, { status, ownerId });
        const filter: LeadFilter = { ...EMPTY_FILTER, ...picked };
        const listed = Object.fromEntries(
          await Promise.all(
            LEAD_STATUSES.map(async (status) => [
              status,
              (await listLeads({ team, filter: { ...filter, status }, take: 100 })).leads.length,
            ]),
          ),
        ) as Record<LeadStatus, number>;
        const got = await countLeadsByStatus(team, filter, cap);
        // Counted from an index: no filter but the owner's; any other is tallied from its newest matches.
        const sampled = filter.duplicatesOnly || filter.query !== "" || filter.createdFrom !== null || filter.sourceId !== null;
        const total = LEAD_STATUSES.reduce((sum, status) => sum + listed[status], 0);
        for (const status of LEAD_STATUSES) {
          const expected = !sampled || total <= cap ? { count: Math.min(listed[status], cap), capped: listed[status] > cap } : null;
          if (expected) assert.deepEqual(got[status], expected, status);
          else assert.ok(got[status].capped && got[status].count <= listed[status], status);
        }
        if (sampled && total > cap)
          assert.equal(
            LEAD_STATUSES.reduce((sum, status) => sum + got[status].count, 0),
            cap,
          );
      },
    ),
    { numRuns: 40 },
  );
});

if (database.provider === "sqlite")
  test("SQLite: every status is counted on an index: (teamId, status, seq) with no filter, (teamId, ownerId, status, seq) under an owner filter, from the index alone", async () => {
    const plan = async (filter: Partial<LeadFilter>) =>
      (
        await db().$queryRaw<{ detail: string }[]>(
          sql`EXPLAIN QUERY PLAN ${statusCountsQuery(team.id, equalityFilters({ ...EMPTY_FILTER, ...filter }), 10_000)}`,
        )
      )
        .map((row) => row.detail)
        .filter((detail) => / Lead\b/.test(detail));
    const expected: [Partial<LeadFilter>, RegExp][] = [
      [{}, /^SEARCH Lead USING COVERING INDEX Lead_teamId_status_seq_idx \(teamId=\? AND status=\?/],
      [{ owner: "none" }, /^SEARCH Lead USING COVERING INDEX Lead_teamId_ownerId_status_seq_idx \(teamId=\? AND ownerId=\? AND status=\?/],
      [{ owner: ada.id }, /^SEARCH Lead USING COVERING INDEX Lead_teamId_ownerId_status_seq_idx \(teamId=\? AND ownerId=\? AND status=\?/],
    ];
    for (const [filter, read] of expected) {
      const reads = await plan(filter);
      assert.equal(reads.length, LEAD_STATUSES.length, JSON.stringify(filter));
      for (const each of reads) assert.match(each, read, JSON.stringify(filter));
    }
    for (const filter of [{ sourceId: webinar.id }, { owner: "none", utmSource: "google" }]) {
      const reads = await plan(filter);
      assert.equal(reads.length, LEAD_STATUSES.length, JSON.stringify(filter));
      for (const read of reads) assert.match(read, /^SEARCH Lead USING (COVERING )?INDEX /, JSON.stringify(filter));
    }
  });
