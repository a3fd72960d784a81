import assert from "node:assert/strict";
import { test } from "node:test";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { addLeadSource } from "../teams/lead-sources";
import { createLead } from "./create-lead";
import {
  EMPTY_FILTER,
  filterParams,
  listQueryString,
  parseLeadFilter,
  parseListPosition,
  resolveOwner,
  type LeadFilter,
} from "./lead-filter";
import { exportLeadBatches } from "./lead-export-store";
import { countMatchingLeads, listLeads, matchingLeadIds } from "./lead-list-store";
import { countLeadsByStatus } from "./lead-status-counts";
import { makeUser } from "./lead-ownership.fixtures";
import type { LeadInput } from "./parse-lead-input";

const database = await useTestDatabase();

const team = await createTeam({ slug: "filters", name: "Filters", defaultPhoneCountry: "GB" });
const other = await createTeam({ slug: "filters-other", name: "Other" });
const webinar = await addLeadSource(team.id, "Webinar");

async function lead(
  input: Partial<LeadInput> & { name: string },
  options: { teamId?: string; apiKeyId?: string; formId?: string; connectionId?: string; createdAt?: string } = {},
) {
  const teamId = options.teamId ?? team.id;
  const { leadId } = await createLead({
    team: { id: teamId, defaultPhoneCountry: "GB" },
    apiKeyId: options.apiKeyId ?? null,
    formId: options.formId ?? null,
    connectionId: options.connectionId ?? null,
    input: { extraFields: {}, ...input },
  });
  if (options.createdAt) await db().lead.update({ where: { id: leadId }, data: { createdAt: new Date(options.createdAt) } });
  return leadId;
}

const march = await lead(
  { name: "March Lead", source: "webinar", utm_source: "google", utm_campaign: "spring" },
  { createdAt: "2026-03-10T12:00:00Z", apiKeyId: "a".repeat(20) },
);
const form = "form_" + "f".repeat(16);
const aprilFirst = await lead(
  { name: "April First", utm_source: "google", utm_campaign: "spring" },
  { createdAt: "2026-04-01T00:00:00Z", formId: form },
);
const aprilLast = await lead(
  { name: "April Last", email: "dup@example.com", utm_source: "bing" },
  { createdAt: "2026-04-30T23:59:59Z", apiKeyId: "a".repeat(20) },
);
const may = await lead(
  { name: "May Lead", email: "DUP@example.com", source: "Webinar" },
  { createdAt: "2026-05-01T00:00:00Z", formId: form },
);
await lead({ name: "Other Team", utm_campaign: "spring", email: "dup@example.com" }, { teamId: other.id, formId: form });
const connection = "conn_" + "c".repeat(16);
const june = await lead({ name: "June Tally", utm_source: "google" }, { createdAt: "2026-06-01T00:00:00Z", connectionId: connection });
await lead({ name: "Other Tally" }, { teamId: other.id, connectionId: connection });

// Status and owner (written directly: the rules are lead-ownership.ts'). Unassigned and New: aprilFirst, june.
const ada = await makeUser("Ada Owner");
const bob = await makeUser(null);
const own = (id: string, data: { status?: string; ownerId?: string }) => db().lead.update({ where: { id }, data });
await own(march, { status: "contacted", ownerId: ada.id });
await own(aprilLast, { status: "qualified", ownerId: ada.id });
await own(may, { status: "contacted", ownerId: bob.id });
await own(await lead({ name: "Other Owned" }, { teamId: other.id }), { status: "contacted", ownerId: ada.id });

const ids = async (filter: Partial<LeadFilter>) =>
  (await listLeads({ team, filter: { ...EMPTY_FILTER, ...filter } })).leads.map((l) => l.id);

test("each filter narrows the list, and filters combine", async () => {
  assert.deepEqual(await ids({ sourceId: webinar.id }), [may, march]);
  assert.deepEqual(await ids({ utmSource: "google" }), [june, aprilFirst, march]);
  assert.deepEqual(await ids({ utmCampaign: "spring" }), [aprilFirst, march]);
  assert.deepEqual(await ids({ apiKeyId: "a".repeat(20) }), [aprilLast, march]);
  assert.deepEqual(await ids({ formId: form }), [may, aprilFirst], "created by form, never another team's lead of the same form id");
  assert.deepEqual(await ids({ formId: form, utmCampaign: "spring" }), [aprilFirst]);
  assert.deepEqual(await ids({ connectionId: connection }), [june], "created by connection, never another team's lead of the same id");
  assert.deepEqual(await ids({ connectionId: connection, utmSource: "bing" }), []);
  assert.deepEqual(await ids({ createdFrom: "2026-04-01", createdTo: "2026-04-30" }), [aprilLast, aprilFirst], "both days inclusive, UTC");
  assert.deepEqual(await ids({ createdFrom: "2026-04-02" }), [june, may, aprilLast]);
  assert.deepEqual(await ids({ createdTo: "2026-03-31" }), [march]);
  assert.deepEqual(await ids({ duplicatesOnly: true }), [may, aprilLast]);
  assert.deepEqual(await ids({ utmSource: "google", sourceId: webinar.id }), [march]);
  assert.deepEqual(await ids({ query: "april", utmSource: "bing" }), [aprilLast], "a search inside a filter");
  assert.deepEqual(await ids({ sort: "oldest" }), [march, aprilFirst, aprilLast, may, june]);
});

test("status and owner filter the list, never another team's lead, and combine with the others", async () => {
  assert.deepEqual(await ids({ status: "contacted" }), [may, march]);
  assert.deepEqual(await ids({ status: "new" }), [june, aprilFirst]);
  assert.deepEqual(await ids({ status: "junk" }), []);
  assert.deepEqual(await ids({ owner: ada.id }), [aprilLast, march]);
  assert.deepEqual(await ids({ owner: "none" }), [june, aprilFirst], "none: unassigned");
  assert.deepEqual(await ids({ owner: "me" }), [], "an unresolved me matches no lead");
  assert.deepEqual(await ids(resolveOwner({ ...EMPTY_FILTER, owner: "me" }, bob.id)), [may]);
  assert.deepEqual(resolveOwner({ ...EMPTY_FILTER, owner: "me" }, null).owner, "me");
  assert.deepEqual(await ids({ status: "contacted", owner: ada.id }), [march]);
  assert.deepEqual(await ids({ owner: ada.id, utmSource: "google" }), [march]);
  assert.deepEqual(await ids({ owner: "none", query: "april" }), [aprilFirst], "a search inside the owner filter");
  assert.deepEqual(await ids({ status: "new", createdFrom: "2026-05-01" }), [june]);
  assert.deepEqual(await ids({ owner: bob.id, duplicatesOnly: true }), [may]);
  assert.deepEqual(await ids({ owner: "none", sort: "oldest" }), [aprilFirst, june]);
  assert.deepEqual(await matchingLeadIds(team, { ...EMPTY_FILTER, owner: "none" }, 100), [aprilFirst, june]);
});

test("the list names each lead's status and owner", async () => {
  const { leads } = await listLeads({ team });
  const byId = new Map(leads.map((l) => [l.id, l]));
  assert.equal(byId.get(march)?.status, "contacted");
  assert.deepEqual(byId.get(march)?.owner, { name: "Ada Owner", email: ada.email });
  assert.deepEqual(byId.get(may)?.owner, { name: null, email: bob.email });
  assert.equal(byId.get(june)?.status, "new");
  assert.equal(byId.get(june)?.owner, null);
});

test("the heading's count agrees with the list for every kind of filter (equality ones are counted in SQL)", async () => {
  const filters: Partial<LeadFilter>[] = [
    {},
    { sourceId: webinar.id },
    { utmSource: "google" },
    { utmCampaign: "spring" },
    { apiKeyId: "a".repeat(20) },
    { formId: form },
    { formId: form, utmCampaign: "spring" },
    { connectionId: connection },
    { utmSource: "google", sourceId: webinar.id },
    { utmSource: "nowhere" },
    { createdFrom: "2026-04-01", createdTo: "2026-04-30" },
    { query: "april", utmSource: "bing" },
    { duplicatesOnly: true },
    { status: "contacted" },
    { status: "new" },
    { status: "junk" },
    { owner: ada.id },
    { owner: "none" },
    { owner: "me" },
    { status: "contacted", owner: ada.id },
    { status: "new", owner: "none" },
    { status: "contacted", owner: "none" },
    { owner: "none", utmSource: "google" },
    { owner: ada.id, sourceId: webinar.id },
    { owner: "none", query: "april" },
    { status: "new", createdFrom: "2026-05-01" },
    { owner: bob.id, duplicatesOnly: true },
  ];
  for (const filter of filters) {
    const listed = (await ids(filter)).length;
    assert.deepEqual(
      await countMatchingLeads(team, { ...EMPTY_FILTER, ...filter }, 100),
      { count: listed, capped: false },
      JSON.stringify(filter),
    );
    if (listed > 0)
      assert.deepEqual(
        await countMatchingLeads(team, { ...EMPTY_FILTER, ...filter }, listed - 1),
        { count: listed - 1, capped: true },
        JSON.stringify(filter),
      );
  }
});

test("counts and lists every match of a filter, never another team's", async () => {
  const filter = { ...EMPTY_FILTER, utmCampaign: "spring" };
  assert.deepEqual(await countMatchingLeads(team, filter, 100), { count: 2, capped: false });
  assert.deepEqual(await countMatchingLeads(team, filter, 1), { count: 1, capped: true });
  assert.deepEqual(await countMatchingLeads(team, { ...EMPTY_FILTER, duplicatesOnly: true }, 100), { count: 2, capped: false });
  assert.deepEqual(await countMatchingLeads(team, { ...EMPTY_FILTER, formId: form }, 100), { count: 2, capped: false });
  assert.deepEqual(await matchingLeadIds(team, filter, 100), [march, aprilFirst]);
  assert.equal(await matchingLeadIds(team, filter, 1), null);
});

test("pages oldest first in both directions", async () => {
  const filter = { ...EMPTY_FILTER, sort: "oldest" as const };
  const first = await listLeads({ team, filter, take: 3 });
  assert.deepEqual(
    first.leads.map((l) => l.id),
    [march, aprilFirst, aprilLast],
  );
  assert.equal(first.newerCursor, null);
  const second = await listLeads({ team, filter, take: 3, after: first.olderCursor! });
  assert.deepEqual(
    second.leads.map((l) => l.id),
    [may, june],
  );
  assert.equal(second.olderCursor, null);
  const back = await listLeads({ team, filter, take: 3, before: second.newerCursor! });
  assert.deepEqual(
    back.leads.map((l) => l.id),
    [march, aprilFirst, aprilLast],
  );
  assert.equal(back.newerCursor, null);
});

test("duplicates only pages through more leads than one scan batch", async () => {
  const crowd = await createTeam({ slug: "crowd", name: "Crowd" });
  const made: string[] = [];
  for (let i = 0; i < 450; i++) {
    const { leadId } = await createLead({
      team: { id: crowd.id, defaultPhoneCountry: null },
      apiKeyId: null,
      input: { extraFields: {}, name: `Person ${i}`, ...(i % 100 === 0 ? { email: "same@example.com" } : {}) },
    });
    made.push(leadId);
  }
  const duplicates = [made[400], made[300], made[200], made[100], made[0]];
  const filter = { ...EMPTY_FILTER, duplicatesOnly: true };
  const first = await listLeads({ team: crowd, filter, take: 2 });
  assert.deepEqual(
    first.leads.map((l) => l.id),
    duplicates.slice(0, 2),
  );
  const second = await listLeads({ team: crowd, filter, take: 2, after: first.olderCursor! });
  assert.deepEqual(
    second.leads.map((l) => l.id),
    duplicates.slice(2, 4),
  );
  const third = await listLeads({ team: crowd, filter, take: 2, after: second.olderCursor! });
  assert.deepEqual(
    third.leads.map((l) => l.id),
    duplicates.slice(4),
  );
  assert.equal(third.olderCursor, null);
  assert.deepEqual(await countMatchingLeads(crowd, filter, 100), { count: 5, capped: false });
});

const DAY = 24 * 60 * 60 * 1000;
let submissionSeq = 0;

/** The lead came back `daysAgo` days ago with `extra` submissions after its first (returnedAt: the latest). */
async function returned(leadId: string, teamId: string, daysAgo: number, extra = 1) {
  const at = new Date(Date.now() - daysAgo * DAY);
  for (let i = extra - 1; i >= 0; i--) {
    await db().leadSubmission.create({
      data: { id: `sub_x${++submissionSeq}`, leadId, teamId, channel: "api", createdAt: new Date(at.getTime() - i * 60_000) },
    });
  }
  await db().lead.update({ where: { id: leadId }, data: { returnedAt: at } });
}

test("returned=7d lists the leads with a submission in the last 7 days after their first, newest first by seq, with the other filters", async () => {
  const back = await createTeam({ slug: "returns", name: "Returns" });
  const inBack = { teamId: back.id };
  // Created first, returned most recently: the list keeps the creation order (seq), not returnedAt's.
  const yesterday = await lead({ name: "Back Yesterday", utm_source: "google" }, inBack);
  const eightDays = await lead({ name: "Back Eight Days Ago", utm_source: "google" }, inBack);
  const never = await lead({ name: "Never Back", utm_source: "google" }, inBack);
  const threeDays = await lead({ name: "Back Three Days Ago", email: "three@example.com" }, inBack);
  const elsewhere = await lead({ name: "Back Elsewhere" }, { teamId: other.id });
  await returned(yesterday, back.id, 1);
  await returned(eightDays, back.id, 8);
  await returned(threeDays, back.id, 3, 2);
  await returned(elsewhere, other.id, 2);
  await own(yesterday, { status: "contacted", ownerId: ada.id });

  const within = { ...EMPTY_FILTER, returned: "7d" as const };
  const listed = async (filter: Partial<LeadFilter>) =>
    (await listLeads({ team: back, filter: { ...within, ...filter } })).leads.map((l) => l.id);
  assert.deepEqual(await listed({}), [threeDays, yesterday], "8 days ago, never and another team's are out");
  assert.deepEqual(await listed({ sort: "oldest" }), [yesterday, threeDays]);
  assert.deepEqual(await listed({ returned: null }), [threeDays, never, eightDays, yesterday], "without it, every lead");
  assert.deepEqual(await listed({ utmSource: "google" }), [yesterday]);
  assert.deepEqual(await listed({ status: "contacted" }), [yesterday]);
  assert.deepEqual(await listed({ owner: "none" }), [threeDays]);
  assert.deepEqual(await listed({ query: "three@" }), [threeDays], "a search inside the filter");
  assert.deepEqual(await listed({ query: "never" }), []);
  assert.deepEqual(await listed({ createdFrom: "2020-01-01" }), [threeDays, yesterday]);
  assert.deepEqual(await ids({ returned: "7d" }), [], "the first team has no returned lead");

  // Paged one lead at a time, both ways.
  const first = await listLeads({ team: back, filter: within, take: 1 });
  const second = await listLeads({ team: back, filter: within, take: 1, after: first.olderCursor! });
  assert.deepEqual(
    [...first.leads, ...second.leads].map((l) => l.id),
    [threeDays, yesterday],
  );
  assert.equal(second.olderCursor, null);
  assert.deepEqual(
    (await listLeads({ team: back, filter: within, take: 1, before: second.newerCursor! })).leads.map((l) => l.id),
    [threeDays],
  );

  // The heading's count, the status views, "delete all matching" and the export read the same leads.
  assert.deepEqual(await countMatchingLeads(back, within, 100), { count: 2, capped: false });
  assert.deepEqual(await countMatchingLeads(back, within, 1), { count: 1, capped: true });
  assert.deepEqual(await countMatchingLeads(back, { ...within, status: "contacted" }, 100), { count: 1, capped: false });
  const byStatus = await countLeadsByStatus(back, within, 100);
  assert.deepEqual(
    [byStatus.new, byStatus.contacted],
    [
      { count: 1, capped: false },
      { count: 1, capped: false },
    ],
  );
  assert.deepEqual(await matchingLeadIds(back, within, 100), [yesterday, threeDays]);
  const exported = [];
  for await (const batch of exportLeadBatches(back, within, 1)) exported.push(...batch.map((row) => [row.id, row.submissions]));
  assert.deepEqual(exported, [
    [threeDays, 3],
    [yesterday, 2],
  ]);
});

if (database.provider === "sqlite")
  test("SQLite: returned=7d reads the (teamId, returnedAt) range and sorts its matches by seq, alone and beside an equality filter", async () => {
    const since = new Date(Date.now() - 7 * DAY);
    const plan = async (query: ReturnType<typeof sql>) =>
      (await db().$queryRaw<{ detail: string }[]>(sql`EXPLAIN QUERY PLAN ${query}`)).map((row) => row.detail).join(" | ");
    // The list's page, as Prisma writes it (newest first by seq); the count and the export's
    // batches are the same statement with another LIMIT.
    const page = await plan(
      sql`SELECT "id" FROM "Lead" WHERE ("teamId" = ${team.id} AND "returnedAt" >= ${since}) ORDER BY "seq" DESC LIMIT ${26} OFFSET ${0}`,
    );
    assert.match(
      page,
      /^SEARCH Lead USING INDEX Lead_teamId_returnedAt_idx \(teamId=\? AND returnedAt>\?\) \| USE TEMP B-TREE FOR ORDER BY$/,
    );
    // With an equality filter too: still the returnedAt range (SQLite's estimate of the range
    // beats walking the filter's (teamId, column, seq) index) and the others checked row by row.
    const status = await plan(
      sql`SELECT "id" FROM "Lead" WHERE ("teamId" = ${team.id} AND "status" = ${"new"} AND "returnedAt" >= ${since}) ORDER BY "seq" DESC LIMIT ${26} OFFSET ${0}`,
    );
    assert.match(status, /^SEARCH Lead USING INDEX Lead_teamId_returnedAt_idx /);
  });

test("the URL form of a filter and a list position round-trips, dropping what is malformed", () => {
  const filter = parseLeadFilter(
    new URLSearchParams(
      "q= ada &source=s1&utm_source=g&utm_campaign=c&channel=Paid%20Search&key=k&form=f1&connection=c1&import=imp_1&status=nurture&consent=withdrawn&owner=me&from=2026-02-30&to=2026-04-30&duplicates=1&returned=7d&sort=oldest&x=1",
    ),
  );
  assert.deepEqual(filter, {
    query: "ada",
    sourceId: "s1",
    utmSource: "g",
    utmCampaign: "c",
    channelGroup: "Paid Search",
    apiKeyId: "k",
    formId: "f1",
    connectionId: "c1",
    importId: "imp_1",
    status: "nurture",
    consent: "withdrawn",
    owner: "me",
    createdFrom: null,
    createdTo: "2026-04-30",
    duplicatesOnly: true,
    returned: "7d",
    sort: "oldest",
  });
  assert.deepEqual(filterParams(EMPTY_FILTER), {});
  assert.equal(
    new URLSearchParams(filterParams(filter)).toString(),
    "q=ada&source=s1&utm_source=g&utm_campaign=c&channel=Paid+Search&key=k&form=f1&connection=c1&import=imp_1&status=nurture&consent=withdrawn&owner=me&to=2026-04-30&duplicates=1&returned=7d&sort=oldest",
  );
  assert.deepEqual(
    filterParams(parseLeadFilter(new URLSearchParams("status=won&owner=a%20b"))),
    {},
    "an unknown status or owner is dropped",
  );
  assert.deepEqual(filterParams(parseLeadFilter(new URLSearchParams("status=new&owner=none"))), { status: "new", owner: "none" });
  for (const bad of ["returned=7D", "returned=8d", "returned=1", "returned=", "returned=%207d", "returned=toString"]) {
    assert.equal(parseLeadFilter(new URLSearchParams(bad)).returned, null, bad);
    assert.deepEqual(filterParams(parseLeadFilter(new URLSearchParams(bad))), {}, `${bad}: ignored like any bad value`);
  }
  assert.deepEqual(filterParams(parseLeadFilter({ returned: ["7d", "8d"] })), { returned: "7d" });
  assert.equal(listQueryString(parseListPosition(new URLSearchParams("owner=cl123&after=7"))), "owner=cl123&after=7");
  const position = parseListPosition(new URLSearchParams("q=ada&after=42&before=x"));
  assert.equal(listQueryString(position), "q=ada&after=42");
  assert.equal(listQueryString(parseListPosition(new URLSearchParams("https://evil.example/"))), "");
});

test("the channel group filter: the last touch's group, parsed from `channel`, listed and counted alike, never another team's", async () => {
  const channels = await createTeam({ slug: "filters-channels", name: "Channels" });
  const at = (input: Partial<LeadInput> & { name: string }, teamId = channels.id) => lead(input, { teamId });
  const paid = await at({ name: "Paid Click", utm_source: "google", utm_medium: "cpc" });
  const mail = await at({ name: "Newsletter Reader", utm_source: "newsletter", utm_medium: "email" });
  const direct = await at({ name: "Typed The Address" });
  const paidLater = await at({ name: "Paid Again", utm_source: "bing", utm_medium: "ppc" });
  await at({ name: "Other Team Paid", utm_source: "google", utm_medium: "cpc" }, other.id);
  const stored = await db().lead.findMany({ where: { teamId: channels.id }, select: { id: true, channelGroup: true } });
  assert.deepEqual(Object.fromEntries(stored.map((row) => [row.id, row.channelGroup])), {
    [paid]: "Paid Search",
    [mail]: "Email",
    [direct]: "Direct",
    [paidLater]: "Paid Search",
  });

  const team = { id: channels.id, defaultPhoneCountry: null };
  const listed = async (url: string) =>
    (await listLeads({ team, filter: parseLeadFilter(new URLSearchParams(url)) })).leads.map((l) => l.id);
  assert.deepEqual(await listed("channel=Paid+Search"), [paidLater, paid]);
  assert.deepEqual(await listed("channel=Email"), [mail]);
  assert.deepEqual(await listed("channel=Direct&q=typed"), [direct], "with a search");
  assert.deepEqual(await listed("channel=Paid+Search&utm_source=bing"), [paidLater], "with another filter");
  assert.deepEqual(await listed("channel=Display"), []);
  for (const url of ["channel=Paid+Search", "channel=Email", "channel=Display"]) {
    const filter = parseLeadFilter(new URLSearchParams(url));
    assert.deepEqual(await countMatchingLeads(team, filter, 100), { count: (await listed(url)).length, capped: false }, url);
  }
  for (const bad of ["channel=paid+search", "channel=Paid", "channel=", "channel=toString", "channel=Paid%20Search%20"]) {
    assert.equal(parseLeadFilter(new URLSearchParams(bad)).channelGroup, null, bad);
    assert.deepEqual(await listed(bad), [paidLater, direct, mail, paid], `${bad}: ignored, the whole list`);
  }
});
