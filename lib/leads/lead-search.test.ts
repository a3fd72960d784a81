import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { foldExistingSearchKeys } from "../setup/fold-search-keys";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { EMPTY_FILTER } from "./lead-filter";
import { listLeads } from "./lead-list-store";
import { searchKey } from "./new-lead";
import type { LeadInput } from "./parse-lead-input";

await useTestDatabase();

const team = await createTeam({ slug: "search", name: "Search", defaultPhoneCountry: "GB" });
const other = await createTeam({ slug: "search-other", name: "Other" });

async function lead(input: Partial<LeadInput> & { name: string }, teamId = team.id): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: "GB" }, apiKeyId: null, input: { extraFields: {}, ...input } }))
    .leadId;
}

const diaz = await lead({ name: "José Díaz", organization: "Ñandú Café", phone: "+44 7911 123456" });
const mobile = await lead({ name: "Mobile Only", mobile_no: "07911 123456" });
const zoe = await lead({ name: "ZOË Ångström" });
await lead({ name: "José Díaz", phone: "+44 7911 123456" }, other.id);

const found = async (query: string) => (await listLeads({ team, filter: { ...EMPTY_FILTER, query } })).leads.map((l) => l.id);

test("folds accents and case", () => {
  assert.equal(searchKey("  José DÍAZ "), "jose diaz");
  assert.equal(searchKey("Ångström ﬁne"), "angstrom fine");
});

test("names and organizations are found without their accents, in any case", async () => {
  for (const query of ["diaz", "DÍAZ", "jose d", "josé", "nandu", "ÑANDÚ CAFÉ"]) assert.deepEqual(await found(query), [diaz], query);
  for (const query of ["zoe", "angstrom", "Ångs"]) assert.deepEqual(await found(query), [zoe], query);
});

test("a phone number in any form the intake reads finds the lead by phone or mobile, in this team only", async () => {
  for (const query of ["+44 7911 123456", "07911 123456", "07911123456", "0044 7911 123456", "+447911123456"]) {
    assert.deepEqual(await found(query), [mobile, diaz], query);
  }
  assert.deepEqual(await found("07911 12345"), [], "not a valid number: no phone match");
});

test("a lead id finds that lead, in any case and padding", async () => {
  assert.deepEqual(await found(diaz), [diaz]);
  assert.deepEqual(await found(diaz.toLowerCase()), [diaz]);
  assert.deepEqual(await found(`CRM-LEAD-${Number(diaz.slice(9))}`), [diaz]);
});

test("leads stored before folding are folded once at start", async () => {
  await db().lead.update({ where: { id: diaz }, data: { nameKey: "josé díaz", lastNameKey: "díaz", organizationKey: "ñandú café" } });
  assert.deepEqual(await found("diaz"), []);
  assert.equal(await foldExistingSearchKeys(), 1);
  assert.deepEqual(await found("diaz"), [diaz]);
  await db().lead.update({ where: { id: diaz }, data: { nameKey: "josé díaz" } });
  assert.equal(await foldExistingSearchKeys(), 0, "it runs once");
});
