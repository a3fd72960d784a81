import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { parseLeadId } from "./lead-id";
import { lastLeadNumber } from "./lead-number-store";
import { writeLead, writeLeadBatch } from "./lead-writer";
import { findLeadsByContact } from "./duplicate-store";
import { countLeads, findLead } from "./lead-store";
import type { NewLead } from "./new-lead";

const { provider } = await useTestDatabase();

const team = await createTeam({ slug: "ids", name: "Ids" });
const apiSource = await resolveLeadSource(team.id);

const newLead = (overrides: Partial<NewLead> = {}): NewLead => ({
  teamId: team.id,
  apiKeyId: null,
  formId: null,
  connectionId: null,
  firstName: "Ada",
  lastName: null,
  email: null,
  phone: null,
  phoneCountryCode: null,
  phoneNational: null,
  mobileNo: null,
  mobileCountryCode: null,
  mobileNational: null,
  skippedPhone: null,
  skippedMobileNo: null,
  skippedWebsite: null,
  organization: "Ada",
  sourceId: apiSource.id,
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
});

/** Stores a lead through the intake's hot path (lib/leads/lead-writer.ts), with the source as given. */
const insertLead = async (lead: NewLead): Promise<string> => {
  const { sourceId, currency: _currency, ...fields } = lead;
  const written = await writeLead({
    lead: fields,
    source: { chosen: { id: sourceId, name: "API" } },
    events: { origin: { apiKeyId: null, formId: null }, emails: false },
    now: new Date(),
  });
  return written.leadId;
};

const counterValue = () => lastLeadNumber(db());
const seqs = (ids: string[]) => ids.map((id) => parseLeadId(id)!).sort((a, b) => a - b);
const consecutiveFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

describe("lead ids", () => {
  test("the first leads are CRM-LEAD-00001, 00002, 00003, with seq stored alongside", async () => {
    const ids = [await insertLead(newLead()), await insertLead(newLead()), await insertLead(newLead())];
    assert.deepEqual(ids, ["CRM-LEAD-00001", "CRM-LEAD-00002", "CRM-LEAD-00003"]);
    const rows = await db().lead.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" }, select: { id: true, seq: true } });
    assert.deepEqual(rows, [
      { id: "CRM-LEAD-00001", seq: 1 },
      { id: "CRM-LEAD-00002", seq: 2 },
      { id: "CRM-LEAD-00003", seq: 3 },
    ]);
    assert.equal(await counterValue(), 3);
  });

  test("100 concurrent createLead calls get 100 distinct, consecutive ids", async () => {
    const before = await counterValue();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => createLead({ team, apiKeyId: null, input: { name: `Lead ${i}`, extraFields: { i } } })),
    );
    const ids = results.map((r) => r.leadId);
    assert.equal(new Set(ids).size, 100);
    assert.deepEqual(seqs(ids), consecutiveFrom(before + 1, 100));
    assert.equal(await counterValue(), before + 100);
    assert.equal(await db().lead.count({ where: { id: { in: ids } } }), 100);
  });

  test("the id of a deleted lead is never issued again (a counter, not a scan for the maximum)", async () => {
    const last = await insertLead(newLead());
    await db().lead.delete({ where: { id: last } });
    const next = await insertLead(newLead());
    assert.equal(parseLeadId(next), parseLeadId(last)! + 1);
  });

  test("an email is stored with its lower-case key", async () => {
    const id = await insertLead(newLead({ email: "Ada@Example.COM" }));
    const row = await db().lead.findUniqueOrThrow({ where: { id } });
    assert.equal(row.email, "Ada@Example.COM");
    assert.equal(row.emailKey, "ada@example.com");
  });
});

// SQLite takes numbers from the counter row in the lead's transaction: a failure gives its
// number back. PostgreSQL takes them from a sequence, never rolled back: a failure leaves a
// gap, and no number is issued twice (docs/api.md "Lead ids").
const noGaps = provider === "sqlite";

describe(
  noGaps ? "a failing insert leaves no row and does not consume an id" : "a failing insert leaves no row; its number is never issued",
  () => {
    const failures: [string, () => NewLead][] = [
      ["a source that does not exist (foreign key)", () => newLead({ sourceId: "no-such-source" })],
      ["a team that does not exist (foreign key)", () => newLead({ teamId: "no-such-team" })],
      ["a value the database refuses (NOT NULL)", () => newLead({ firstName: null as unknown as string })],
    ];
    for (const [title, lead] of failures) {
      test(title, async () => {
        const [counter, rows] = [await counterValue(), await countLeads()];
        await assert.rejects(insertLead(lead()));
        const spent = await counterValue();
        assert.ok(noGaps ? spent === counter : spent <= counter + 1, `${spent} after ${counter}`);
        assert.equal(await countLeads(), rows);
        const next = await insertLead(newLead());
        assert.equal(parseLeadId(next), spent + 1);
      });
    }

    test(
      noGaps
        ? "failures mixed into concurrent inserts leave no gaps between the others"
        : "failures mixed into concurrent inserts: the others get distinct numbers after the last one",
      async () => {
        const before = await counterValue();
        const attempts = Array.from({ length: 40 }, (_, i) =>
          insertLead(i % 4 === 3 ? newLead({ sourceId: "no-such-source" }) : newLead()),
        );
        const settled = await Promise.allSettled(attempts);
        const ids = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
        assert.equal(settled.filter((s) => s.status === "rejected").length, 10);
        if (noGaps) {
          assert.deepEqual(seqs(ids), consecutiveFrom(before + 1, 30));
          assert.equal(await counterValue(), before + 30);
        } else {
          assert.equal(new Set(ids).size, 30);
          assert.ok(seqs(ids)[0]! > before && (await counterValue()) <= before + 40);
        }
      },
    );
  },
);

describe("reading leads is scoped by team", () => {
  test("findLead finds a lead only with its own team's id; countLeads counts per team", async () => {
    const other = await createTeam({ slug: "ids-other", name: "Other" });
    const id = await insertLead(newLead());
    const found = await findLead({ id, teamId: team.id });
    assert.equal(found?.id, id);
    assert.equal(found?.source.name, "API");
    assert.equal(await findLead({ id, teamId: other.id }), null);
    assert.equal(await countLeads(other.id), 0);
    assert.equal(await countLeads(team.id), await countLeads());
  });

  test("the lead-id counter is workspace-wide: the gap between a team's ids is the others' volume (docs/security.md)", async () => {
    const other = await createTeam({ slug: "ids-volume", name: "Volume" });
    const otherSource = await resolveLeadSource(other.id);
    const first = parseLeadId(await insertLead(newLead()))!;
    for (let i = 0; i < 7; i++) await insertLead(newLead({ teamId: other.id, sourceId: otherSource.id }));
    const next = parseLeadId(await insertLead(newLead()))!;
    assert.equal(next - first - 1, 7, "the documented exposure: 7 leads of another team show as a gap of 7");
  });
});

describe("an import's duplicate check", () => {
  test("findLeadsByContact finds the team's leads by email, phone or mobile across lists longer than one chunk, oldest first, and no other team's", async () => {
    const own = await createTeam({ slug: "contacts", name: "Contacts" });
    const other = await createTeam({ slug: "contacts-other", name: "Contacts other" });
    const ownSource = await resolveLeadSource(own.id);
    const otherSource = await resolveLeadSource(other.id);
    const number = (i: number) => `+4479${String(i).padStart(8, "0")}`;
    // 1,200 leads: even ones with an email, every third with a phone, every fifth with a mobile.
    const leads = Array.from({ length: 1_200 }, (_, i) =>
      newLead({
        teamId: own.id,
        sourceId: ownSource.id,
        email: i % 2 === 0 ? `Person${i}@Example.com` : null,
        phone: i % 3 === 0 ? number(i) : null,
        mobileNo: i % 5 === 0 ? number(100_000 + i) : null,
      }),
    );
    const ids = await db().$transaction((tx) => writeLeadBatch(tx, leads));
    await db().$transaction((tx) =>
      writeLeadBatch(tx, [newLead({ teamId: other.id, sourceId: otherSource.id, email: "person0@example.com", phone: number(3) })]),
    );

    const emails = Array.from({ length: 1_100 }, (_, i) => `person${i}@example.com`);
    const numbers = [...Array.from({ length: 700 }, (_, i) => number(i)), ...Array.from({ length: 700 }, (_, i) => number(100_000 + i))];
    const found = await findLeadsByContact(own.id, { emails, numbers });
    const expected = ids.filter((_, i) => (i < 1_100 && i % 2 === 0) || (i < 700 && (i % 3 === 0 || i % 5 === 0)));
    assert.deepEqual(
      found.map((lead) => lead.id),
      expected,
    );
    assert.deepEqual(
      found.slice(0, 2).map((lead) => [lead.emailKey, lead.phone, lead.mobileNo]),
      [
        ["person0@example.com", number(0), number(100_000)],
        ["person2@example.com", null, null],
      ],
    );
    assert.deepEqual(await findLeadsByContact(own.id, { emails: [], numbers: [] }), []);
  });
});
