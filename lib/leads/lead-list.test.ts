import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { createLead } from "./create-lead";
import { EMPTY_FILTER } from "./lead-filter";
import { findPossibleDuplicates } from "./duplicate-store";
import { listLeads } from "./lead-list-store";
import { countLeadsUpTo, findLead } from "./lead-store";
import type { LeadInput } from "./parse-lead-input";

await useTestDatabase();

const team = await createTeam({ slug: "list", name: "List" });
const other = await createTeam({ slug: "other", name: "Other" });

async function lead(input: Partial<LeadInput> & { name: string }, teamId = team.id): Promise<string> {
  const { leadId } = await createLead({
    team: { id: teamId, defaultPhoneCountry: null },
    apiKeyId: null,
    input: { extraFields: {}, ...input },
  });
  return leadId;
}

const ada = await lead({ name: "Ada King Lovelace", email: "Ada@Example.com", organization: "Analytical Engines", phone: "+447911123456" });
const sameEmail = await lead({ name: "Augusta Byron", email: "ada@example.COM" });
const phoneAsMobile = await lead({ name: "Charles Babbage", mobile_no: "+44 7911 123456" });
const ownNumbersOnly = await lead({ name: "Mary Somerville", phone: "+14155552671", mobile_no: "+14155552671" });
const fillers: string[] = [];
for (let i = 0; i < 5; i++) fillers.push(await lead({ name: `Filler ${i}` }));
await lead({ name: "Ada Elsewhere", email: "ada@example.com" }, other.id);

const search = (query: string) => ({ ...EMPTY_FILTER, query });
const names = (page: { leads: { name: string }[] }) => page.leads.map((l) => l.name);

test("pages newest first by seq cursor, in both directions", async () => {
  const first = await listLeads({ team, take: 4 });
  assert.deepEqual(names(first), ["Filler 4", "Filler 3", "Filler 2", "Filler 1"]);
  assert.equal(first.newerCursor, null);
  assert.ok(first.olderCursor !== null);

  const second = await listLeads({ team, take: 4, after: first.olderCursor! });
  assert.deepEqual(names(second), ["Filler 0", "Mary Somerville", "Charles Babbage", "Augusta Byron"]);
  const last = await listLeads({ team, take: 4, after: second.olderCursor! });
  assert.deepEqual(names(last), ["Ada King Lovelace"]);
  assert.equal(last.olderCursor, null);

  const back = await listLeads({ team, take: 4, before: last.newerCursor! });
  assert.deepEqual(names(back), names(second));
  const top = await listLeads({ team, take: 4, before: back.newerCursor! });
  assert.deepEqual(names(top), names(first));
  assert.equal(top.newerCursor, null);
});

test("searches the start of the full name, last name, email and organization, ignoring case", async () => {
  for (const query of ["ada k", "KING LOVE", "king", "ada@exa", "analytical"]) {
    assert.ok(names(await listLeads({ team, filter: search(query) })).includes("Ada King Lovelace"), query);
  }
  assert.deepEqual(names(await listLeads({ team, filter: search("ada@") })), ["Augusta Byron", "Ada King Lovelace"]);
  assert.deepEqual(names(await listLeads({ team, filter: search("velace") })), [], "prefix search, not infix");
  assert.deepEqual(names(await listLeads({ team, filter: search("elsewhere") })), [], "other teams are never searched");
  assert.deepEqual(names(await listLeads({ team, filter: search("%") })), [], "LIKE wildcards are literal");
});

test("marks leads sharing an email or an E.164 number with another lead of the same team", async () => {
  const page = await listLeads({ team });
  const flagged = page.leads
    .filter((l) => l.possibleDuplicate)
    .map((l) => l.id)
    .sort();
  assert.deepEqual(flagged, [ada, sameEmail, phoneAsMobile].sort());
  assert.ok(!flagged.includes(ownNumbersOnly), "a lead's own phone and mobile do not make it a duplicate");
});

test("lists the possible duplicates of a lead with the reason", async () => {
  const found = await findLead({ id: ada, teamId: team.id });
  const duplicates = await findPossibleDuplicates(found!);
  assert.deepEqual(
    duplicates.map((d) => [d.id, d.reasons]).sort(),
    [
      [phoneAsMobile, ["phone"]],
      [sameEmail, ["email"]],
    ].sort(),
  );
  assert.equal(await findLead({ id: ada, teamId: other.id }), null, "another team's lead is not found");
  assert.ok(fillers.length === 5);
});

test("counts a team's leads up to a cap, and says when there are more", async () => {
  assert.deepEqual(await countLeadsUpTo(team.id, 100), { count: 9, capped: false });
  assert.deepEqual(await countLeadsUpTo(team.id, 9), { count: 9, capped: false });
  assert.deepEqual(await countLeadsUpTo(team.id, 8), { count: 8, capped: true });
  assert.deepEqual(await countLeadsUpTo(other.id, 8), { count: 1, capped: false });
});

test("search takes % and _ literally and finds names that contain them", async () => {
  const shop = await createTeam({ slug: "wildcards", name: "Wildcards" });
  for (const name of ["100% Juice", "A_B Testing", "Abba", "1000 Islands"]) await lead({ name }, shop.id);
  const find = async (query: string) => names(await listLeads({ team: shop, filter: { ...EMPTY_FILTER, query } }));
  assert.deepEqual(await find("100%"), ["100% Juice"]);
  assert.deepEqual(await find("a_"), ["A_B Testing"]);
  assert.deepEqual(await find("_"), []);
  assert.deepEqual(await find("\\"), []);
});

test("a page names each returned lead's number of submissions, counted for its rows only", async () => {
  const back = await createTeam({ slug: "submissions", name: "Submissions" });
  await lead({ name: "Once" }, back.id);
  const thrice = await lead({ name: "Thrice" }, back.id);
  const twice = await lead({ name: "Twice" }, back.id);
  const at = new Date();
  const add = (leadId: string, n: number) =>
    db().leadSubmission.create({ data: { id: `sub_x${leadId}_${n}`, leadId, teamId: back.id, channel: "api", createdAt: at } });
  await add(thrice, 2);
  await add(thrice, 3);
  await add(twice, 2);
  for (const id of [thrice, twice]) await db().lead.update({ where: { id }, data: { returnedAt: at } });
  const count = (page: Awaited<ReturnType<typeof listLeads>>) => page.leads.map((l) => [l.name, l.submissions]);
  assert.deepEqual(count(await listLeads({ team: back })), [
    ["Twice", 2],
    ["Thrice", 3],
    ["Once", 1],
  ]);
  assert.deepEqual(count(await listLeads({ team: back, take: 1, after: (await listLeads({ team: back, take: 1 })).olderCursor! })), [
    ["Thrice", 3],
  ]);
  // The first team's leads never returned: each has its one submission.
  assert.ok((await listLeads({ team })).leads.every((l) => l.submissions === 1));
});
