import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import fc from "fast-check";

// The lead list's consent filter (issue 46; docs/consent.md "Filtering the list by consent"), on
// a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): a lead's current status is its
// newest evidence's, kept in LeadConsentStatus by triggers on LeadConsent, whichever writer wrote
// the evidence (the intake, the lead page's actions, a merge, a deletion); the list, its count and
// its status tallies filter by it; "none" is a lead without evidence.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { recordLeadConsent, withdrawLeadConsent } = await import("./consent-changes");
const { CONSENT_FILTERS, EMPTY_FILTER, filterParams, parseLeadFilter } = await import("../leads/lead-filter");
const { countMatchingLeads, listLeads } = await import("../leads/lead-list-store");
const { countLeadsByStatus } = await import("../leads/lead-status-counts");
const { deleteLeadsById } = await import("../leads/delete-leads");
const { mergeLeads } = await import("../leads/merge-leads");
const { createTeam } = await import("../teams/team-store");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

let teams = 0;
async function apiTeam() {
  const team = await createTeam({ slug: `consent-filter-${++teams}`, name: "Consent filter" });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  return { team: { id: team.id, defaultPhoneCountry: null }, key };
}

async function createLead(key: { keyId: string; secret: string }, body: Record<string, unknown>): Promise<string> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify(body),
  });
  const context = { requestId: `consent-filter-${Math.random()}`, ip: "198.51.100.7", userAgent: "client/2" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  assert.equal(response.status, 201);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

/** The team's lead ids listed under consent=`status`, oldest first. */
async function listed(team: { id: string; defaultPhoneCountry: null }, consent: (typeof CONSENT_FILTERS)[number]) {
  const page = await listLeads({ team, filter: { ...EMPTY_FILTER, consent, sort: "oldest" }, take: 100 });
  return page.leads.map((lead) => lead.id);
}

/** The status the triggers keep, and the one the newest evidence has: they must agree. */
async function statuses(leadId: string) {
  const kept = await db().leadConsentStatus.findUnique({ where: { leadId } });
  const newest = await db().leadConsent.findFirst({ where: { leadId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { kept: kept?.status ?? "none", newest: newest?.status ?? "none" };
}

describe("the consent filter", () => {
  test("the URL's consent is parsed (an unknown value is dropped) and written back", () => {
    for (const consent of CONSENT_FILTERS) {
      const filter = parseLeadFilter(new URLSearchParams({ consent }));
      assert.equal(filter.consent, consent);
      assert.deepEqual(filterParams(filter), { consent });
    }
    assert.equal(parseLeadFilter(new URLSearchParams({ consent: "yes" })).consent, null);
    assert.equal(parseLeadFilter({ consent: ["confirmed", "none"] }).consent, "confirmed");
  });

  test("each lead is listed and counted under its newest evidence's status; a lead without any under none; never another team's", async () => {
    const { team, key } = await apiTeam();
    const other = await apiTeam();
    const given = await createLead(key, { name: "Ada", consent: "yes" });
    const refused = await createLead(key, { name: "Grace", consent: "no" });
    const none = await createLead(key, { name: "Linus" });
    const withdrawn = await createLead(key, { name: "Alan", email: "alan@example.com", consent: "yes" });
    assert.deepEqual(await withdrawLeadConsent({ teamId: team.id, leadId: withdrawn, note: null, actor: CLI_ACTOR }), {
      result: "withdrawn",
      id: (await db().leadConsent.findFirst({ where: { leadId: withdrawn, status: "withdrawn" } }))!.id,
    });
    await createLead(other.key, { name: "Other", consent: "yes" });

    assert.deepEqual(await listed(team, "given"), [given]);
    assert.deepEqual(await listed(team, "not_given"), [refused]);
    assert.deepEqual(await listed(team, "none"), [none]);
    assert.deepEqual(await listed(team, "withdrawn"), [withdrawn]);
    assert.deepEqual(await listed(team, "confirmed"), []);
    assert.deepEqual(await countMatchingLeads(team, { ...EMPTY_FILTER, consent: "given" }, 100), { count: 1, capped: false });
    assert.deepEqual(await countMatchingLeads(team, { ...EMPTY_FILTER, consent: "none" }, 100), { count: 1, capped: false });
    const tallies = await countLeadsByStatus(team, { ...EMPTY_FILTER, consent: "withdrawn" }, 100);
    assert.deepEqual(tallies.new, { count: 1, capped: false });
    assert.equal(
      Object.values(tallies).reduce((sum, tally) => sum + tally.count, 0),
      1,
    );
    // Beside another filter: both apply.
    const both = await listLeads({ team, filter: { ...EMPTY_FILTER, consent: "given", query: "grace" } });
    assert.deepEqual(both.leads, []);
  });

  test("evidence written later replaces the status, older evidence does not; a recorded consent counts", async () => {
    const { team, key } = await apiTeam();
    const leadId = await createLead(key, { name: "Ada", consent: "no" });
    await recordLeadConsent({
      teamId: team.id,
      leadId,
      consent: { status: "given", text: "Yes", purpose: "Calls", note: "By phone", consentAt: new Date() },
      actor: CLI_ACTOR,
    });
    assert.deepEqual(await statuses(leadId), { kept: "given", newest: "given" });
    // A row that is older than the newest (a writer that committed late) leaves the status alone.
    await db().leadConsent.create({
      data: {
        id: "lc_older",
        leadId,
        teamId: team.id,
        status: "withdrawn",
        channel: "manual",
        consentAt: new Date(0),
        createdAt: new Date(0),
      },
    });
    assert.deepEqual(await statuses(leadId), { kept: "given", newest: "given" });
    assert.deepEqual(await listed(team, "given"), [leadId]);
  });

  test("a merge gives the kept lead its newest moved or own evidence; deleting evidence or the lead leaves no stale status", async () => {
    const { team, key } = await apiTeam();
    const kept = await createLead(key, { name: "Ada Lovelace", consent: "no" });
    const merged = await createLead(key, { name: "Ada King", consent: "yes" });
    const result = await mergeLeads({ teamId: team.id, survivorId: kept, mergedIds: [merged], choices: {}, actor: CLI_ACTOR });
    assert.deepEqual(result, { ok: true });
    assert.deepEqual(await statuses(kept), { kept: "given", newest: "given" });
    assert.equal(await db().leadConsentStatus.count({ where: { leadId: merged } }), 0);

    // The newest row deleted (erasure removes evidence): the status falls back to what is left.
    const newest = await db().leadConsent.findFirst({ where: { leadId: kept }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    await db().leadConsent.delete({ where: { id: newest!.id } });
    assert.deepEqual(await statuses(kept), { kept: "not_given", newest: "not_given" });
    await db().leadConsent.deleteMany({ where: { leadId: kept } });
    assert.deepEqual(await statuses(kept), { kept: "none", newest: "none" });
    assert.deepEqual(await listed(team, "none"), [kept]);

    // Deleting a lead with evidence: its evidence and status go with it (no foreign key failure).
    const gone = await createLead(key, { name: "Grace", consent: "yes" });
    assert.equal(await deleteLeadsById({ teamId: team.id, ids: [gone], actor: CLI_ACTOR }), 1);
    assert.equal(await db().leadConsentStatus.count({ where: { leadId: gone } }), 0);
  });

  test("generated evidence, inserted in any order and partly deleted: the kept status is always the newest row's", async () => {
    const { team, key } = await apiTeam();
    const leadId = await createLead(key, { name: "Generated" });
    const STATUSES = ["given", "not_given", "pending", "confirmed", "withdrawn", "withdrawn_before"] as const;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: fc.constantFrom(...STATUSES), minute: fc.integer({ min: 0, max: 5 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (rows, deletions) => {
          run++;
          await db().leadConsent.deleteMany({ where: { leadId } });
          const ids: string[] = [];
          for (const [i, row] of rows.entries()) {
            const at = new Date(Date.UTC(2026, 11, 1, 10, row.minute));
            const id = `lc_gen_${run}_${i}`;
            ids.push(id);
            await db().leadConsent.create({
              data: { id, leadId, teamId: team.id, status: row.status, channel: "manual", consentAt: at, createdAt: at },
            });
          }
          for (const pick of deletions) await db().leadConsent.deleteMany({ where: { id: ids[pick % ids.length] } });
          const { kept, newest } = await statuses(leadId);
          assert.equal(kept, newest);
        },
      ),
      { numRuns: 40 },
    );
  });
});
