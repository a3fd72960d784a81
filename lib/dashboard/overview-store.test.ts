import assert from "node:assert/strict";
import { test } from "node:test";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { useTestDatabase } from "../../test/support/test-database";
import type { ChannelGroup } from "../attribution/channel-groups";
import { db } from "../db/client";
import { makeUser } from "../leads/lead-ownership.fixtures";
import type { LeadStatus } from "../leads/lead-status";
import { nearestRank } from "../leads/speed-to-lead";
import { createLead } from "../leads/create-lead";
import { addLeadSource, resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { bucketFloorMinutes, contactBucket } from "./contact-buckets";
import type { OverviewRange } from "./overview";
import {
  bucketsOf,
  channelGroupCounts,
  leadsOverTime,
  overviewStatements,
  owners,
  spamPerDay,
  statusFunnel,
  topCampaigns,
} from "./overview-store";

// Leads → Overview's aggregates against hand-counted fixtures, on both databases: a team's leads
// in a 14-day range (Wednesday 2026-03-25 to Tuesday 2026-04-07, the week of 30 March crossing
// into April) and in the 14 days before it, with their channel groups, channels, campaigns,
// statuses, owners, first contacts, status-change audit events and quarantined submissions; a
// lead on each edge of both periods, and another team's rows that must never count.

const database = await useTestDatabase();

const team = await createTeam({ slug: "overview", name: "Overview" });
const other = await createTeam({ slug: "overview-other", name: "Other" });
const api = await resolveLeadSource(team.id);
const webinar = await addLeadSource(team.id, "Webinar");
const ada = await makeUser("Ada Owner");
const bob = await makeUser(null);

const form = await db().webForm.create({ data: { id: "form_contact", teamId: team.id, name: "Contact form", allowedOrigins: [] } });
const connection = await db().connection.create({
  data: { teamId: team.id, builder: "tally", name: "Tally survey", tokenDigest: "digest-1", tokenHint: "abcd", mapping: {} },
});
const key = await db().apiKey.create({
  data: { id: "team_website", teamId: team.id, description: "Website", secretDigest: "x", secretPrefix: "x" },
});
/** A key deleted since: its leads keep its id. */
const GONE_KEY = "team_gone";

const RANGE: OverviewRange = { from: new Date("2026-03-25T00:00:00Z"), to: new Date("2026-04-08T00:00:00Z") };

type Plan = {
  at: string;
  group: ChannelGroup;
  status?: LeadStatus;
  owner?: { id: string } | null;
  /** Minutes from creation to first contact; absent: never contacted. */
  contactAfter?: number;
  campaign?: string;
  source?: { id: string };
  formId?: string;
  connectionId?: string;
  apiKeyId?: string;
  /** Status changes after creation, as audit events [from, to], one minute apart. */
  history?: [LeadStatus, LeadStatus][];
};

async function lead(teamId: string, plan: Plan): Promise<string> {
  const { leadId } = await createLead({
    team: { id: teamId, defaultPhoneCountry: null },
    apiKeyId: null,
    input: { extraFields: {}, name: "Pat" },
  });
  const createdAt = new Date(plan.at);
  await db().lead.update({
    where: { id: leadId },
    data: {
      createdAt,
      channelGroup: plan.group,
      status: plan.status ?? "new",
      ownerId: plan.owner?.id ?? null,
      firstContactedAt: plan.contactAfter === undefined ? null : new Date(createdAt.getTime() + plan.contactAfter * 60_000),
      utmCampaign: plan.campaign ?? null,
      ...(plan.source ? { sourceId: plan.source.id } : {}),
      formId: plan.formId ?? null,
      connectionId: plan.connectionId ?? null,
      apiKeyId: plan.apiKeyId ?? null,
    },
  });
  for (const [i, [from, to]] of (plan.history ?? []).entries()) {
    await db().auditEvent.create({
      data: {
        teamId,
        action: "lead.status_changed",
        via: "web",
        actorUserId: ada.id,
        targetId: leadId,
        details: { from, to },
        createdAt: new Date(createdAt.getTime() + (i + 1) * 60_000),
      },
    });
  }
  return leadId;
}

// The range's seven leads (L1 … L7).
const L = {
  // Two on the first day, the second in its last millisecond.
  l1: await lead(team.id, {
    at: "2026-03-25T09:00:00Z",
    group: "Paid Search",
    status: "qualified",
    owner: ada,
    contactAfter: 10,
    campaign: "spring",
    source: webinar,
    apiKeyId: key.id,
    // Qualified now and in its history: counted once.
    history: [
      ["new", "contacted"],
      ["contacted", "qualified"],
    ],
  }),
  l2: await lead(team.id, {
    at: "2026-03-25T23:59:59.999Z",
    group: "Paid Search",
    status: "contacted",
    owner: ada,
    contactAfter: 20,
    campaign: "spring",
    apiKeyId: key.id,
    history: [["new", "contacted"]],
  }),
  // Qualified twice in its history, unqualified now: ever qualified, once.
  l3: await lead(team.id, {
    at: "2026-03-31T00:00:00Z",
    group: "Email",
    status: "unqualified",
    owner: bob,
    contactAfter: 30,
    campaign: "spring",
    source: webinar,
    formId: form.id,
    history: [
      ["new", "qualified"],
      ["qualified", "nurture"],
      ["nurture", "qualified"],
      ["qualified", "unqualified"],
    ],
  }),
  l4: await lead(team.id, { at: "2026-04-01T12:00:00Z", group: "Email", owner: bob, campaign: "newsletter", formId: form.id }),
  l5: await lead(team.id, {
    at: "2026-04-02T08:00:00Z",
    group: "Organic Search",
    status: "nurture",
    contactAfter: 40,
    connectionId: connection.id,
    history: [["new", "nurture"]],
  }),
  // Qualified once, junk now; its key deleted since.
  l6: await lead(team.id, {
    at: "2026-04-05T20:00:00Z",
    group: "Direct",
    status: "junk",
    owner: ada,
    contactAfter: 5,
    campaign: "spring",
    apiKeyId: GONE_KEY,
    history: [
      ["new", "qualified"],
      ["qualified", "junk"],
    ],
  }),
  l7: await lead(team.id, { at: "2026-04-07T23:00:00Z", group: "Direct", campaign: "newsletter", apiKeyId: key.id }),
};
// On the range's end: the next period's, never counted.
await lead(team.id, {
  at: "2026-04-08T00:00:00Z",
  group: "Paid Search",
  status: "qualified",
  owner: ada,
  contactAfter: 1,
  campaign: "spring",
  history: [["new", "qualified"]],
});
// The previous period [2026-03-11, 2026-03-25): its first millisecond and its last.
await lead(team.id, { at: "2026-03-11T00:00:00Z", group: "Paid Search", campaign: "spring" });
await lead(team.id, { at: "2026-03-20T10:00:00Z", group: "Email" });
await lead(team.id, { at: "2026-03-24T23:59:59.999Z", group: "Referral" });
// Before the previous period.
await lead(team.id, { at: "2026-03-10T23:59:59.999Z", group: "Direct" });
// Another team's lead in the range, qualified in its history, of the same owner and campaign.
await lead(other.id, {
  at: "2026-03-26T10:00:00Z",
  group: "Paid Search",
  status: "junk",
  owner: ada,
  contactAfter: 3,
  campaign: "spring",
  history: [
    ["new", "qualified"],
    ["qualified", "junk"],
  ],
});
// An event of another team naming one of this team's leads (never read).
await db().auditEvent.create({
  data: {
    teamId: other.id,
    action: "lead.status_changed",
    via: "web",
    targetId: L.l4,
    details: { from: "new", to: "qualified" },
    createdAt: new Date("2026-04-02T00:00:00Z"),
  },
});

// Quarantined submissions: two on the first day, one in the last minute, one on each edge outside.
let spamSeq = 900_000;
async function spam(teamId: string, at: string) {
  const seq = ++spamSeq;
  await db().quarantinedLead.create({
    data: { id: `CRM-LEAD-${seq}`, seq, teamId, name: "Spammer", lead: {}, source: {}, score: 10, reasons: [], createdAt: new Date(at) },
  });
}
for (const at of [
  "2026-03-25T00:00:00Z",
  "2026-03-25T13:00:00Z",
  "2026-04-07T23:59:00Z",
  "2026-04-08T00:00:00Z",
  "2026-03-24T23:59:59.999Z",
])
  await spam(team.id, at);
await spam(other.id, "2026-03-26T10:00:00Z");

/** The median as the dashboard reads it: the lower bound of the bucket holding `minutes` (exact below 10 minutes). */
const inBucket = (minutes: number) => bucketFloorMinutes(contactBucket(minutes * 60_000));

const DAYS = [
  "2026-03-25",
  "2026-03-26",
  "2026-03-27",
  "2026-03-28",
  "2026-03-29",
  "2026-03-30",
  "2026-03-31",
  "2026-04-01",
  "2026-04-02",
  "2026-04-03",
  "2026-04-04",
  "2026-04-05",
  "2026-04-06",
  "2026-04-07",
];
/** Zeros on every day but these. */
const days = (counts: Record<string, number>) => DAYS.map((day) => counts[day] ?? 0);

test("buckets: every UTC day of the range, or every ISO week (Monday) it touches, empty ones included", () => {
  assert.deepEqual(bucketsOf(RANGE, "day"), DAYS);
  assert.deepEqual(bucketsOf(RANGE, "week"), ["2026-03-23", "2026-03-30", "2026-04-06"]);
  assert.deepEqual(bucketsOf({ from: new Date("2026-03-30T00:00:00Z"), to: new Date("2026-04-06T00:00:00Z") }, "week"), ["2026-03-30"]);
  assert.deepEqual(bucketsOf({ from: RANGE.from, to: RANGE.from }, "day"), []);
});

test("leads over time by day, stacked by channel group, with the previous period's total", async () => {
  assert.deepEqual(await leadsOverTime(team.id, RANGE, "day", "channelGroup"), {
    buckets: DAYS,
    series: [
      { key: "Paid Search", label: "Paid Search", counts: days({ "2026-03-25": 2 }) },
      { key: "Organic Search", label: "Organic Search", counts: days({ "2026-04-02": 1 }) },
      { key: "Email", label: "Email", counts: days({ "2026-03-31": 1, "2026-04-01": 1 }) },
      { key: "Direct", label: "Direct", counts: days({ "2026-04-05": 1, "2026-04-07": 1 }) },
    ],
    total: 7,
    previousTotal: 3,
  });
});

test("leads over time by week: Monday weeks, the one across the month boundary holding March's and April's days", async () => {
  assert.deepEqual(await leadsOverTime(team.id, RANGE, "week", "channelGroup"), {
    buckets: ["2026-03-23", "2026-03-30", "2026-04-06"],
    series: [
      { key: "Paid Search", label: "Paid Search", counts: [2, 0, 0] },
      { key: "Organic Search", label: "Organic Search", counts: [0, 1, 0] },
      { key: "Email", label: "Email", counts: [0, 2, 0] },
      { key: "Direct", label: "Direct", counts: [0, 1, 1] },
    ],
    total: 7,
    previousTotal: 3,
  });
});

test("the other breakdowns: names, None for no channel, a deleted key by its id", async () => {
  const week = (breakdown: "source" | "form" | "connection" | "apiKey") =>
    leadsOverTime(team.id, RANGE, "week", breakdown).then((r) => r.series);
  assert.deepEqual(await week("apiKey"), [
    { key: "", label: "None", counts: [0, 3, 0] },
    { key: key.id, label: `Website (${key.id})`, counts: [2, 0, 1] },
    { key: GONE_KEY, label: `Deleted key ${GONE_KEY}`, counts: [0, 1, 0] },
  ]);
  assert.deepEqual(await week("source"), [
    { key: api.id, label: api.name, counts: [1, 3, 1] },
    { key: webinar.id, label: "Webinar", counts: [1, 1, 0] },
  ]);
  assert.deepEqual(await week("form"), [
    { key: "", label: "None", counts: [2, 2, 1] },
    { key: form.id, label: "Contact form", counts: [0, 2, 0] },
  ]);
  assert.deepEqual(await week("connection"), [
    { key: "", label: "None", counts: [2, 3, 1] },
    { key: connection.id, label: "Tally survey", counts: [0, 1, 0] },
  ]);
  // Deleting the form leaves its id as the label.
  await db().webForm.delete({ where: { id: form.id } });
  assert.deepEqual((await week("form"))[1], { key: form.id, label: `Deleted form ${form.id}`, counts: [0, 2, 0] });
  await db().webForm.create({ data: { id: form.id, teamId: team.id, name: "Contact form", allowedOrigins: [] } });
});

test("a range with no leads: every bucket, no series, the previous period still counted", async () => {
  const empty = { from: new Date("2026-04-08T00:00:00Z"), to: new Date("2026-04-10T00:00:00Z") };
  // [2026-04-08, 2026-04-10) holds the lead on the edge; the day after it holds none.
  const after = { from: new Date("2026-04-09T00:00:00Z"), to: new Date("2026-04-10T00:00:00Z") };
  assert.deepEqual(await leadsOverTime(team.id, after, "day", "channelGroup"), {
    buckets: ["2026-04-09"],
    series: [],
    total: 0,
    previousTotal: 1,
  });
  assert.equal((await leadsOverTime(team.id, empty, "day", "channelGroup")).total, 1);
  assert.deepEqual(await statusFunnel(team.id, after), [
    { status: "new", reached: 0, dropOffPercent: null },
    { status: "contacted", reached: 0, dropOffPercent: null },
    { status: "qualified", reached: 0, dropOffPercent: null },
  ]);
  assert.deepEqual(await topCampaigns(team.id, after, 10), []);
  assert.deepEqual(await owners(team.id, after), []);
});

test("channel groups: this period against the previous one", async () => {
  assert.deepEqual(await channelGroupCounts(team.id, RANGE), [
    { channelGroup: "Paid Search", leads: 2, previous: 1 },
    { channelGroup: "Email", leads: 2, previous: 1 },
    { channelGroup: "Direct", leads: 2, previous: 0 },
    { channelGroup: "Organic Search", leads: 1, previous: 0 },
    { channelGroup: "Referral", leads: 0, previous: 1 },
  ]);
});

test("the status funnel: every lead started New, five left it, three ever reached Qualified (two of them from the audit history)", async () => {
  assert.deepEqual(await statusFunnel(team.id, RANGE), [
    { status: "new", reached: 7, dropOffPercent: null },
    { status: "contacted", reached: 5, dropOffPercent: (2 / 7) * 100 },
    { status: "qualified", reached: 3, dropOffPercent: 40 },
  ]);
});

test("top campaigns: leads, ever qualified, median minutes to first contact (an even count: the lower middle)", async () => {
  // spring: L1 (qualified, 10 min), L2 (20), L3 (qualified before, 30), L6 (qualified before, 5):
  // times 5, 10, 20, 30, the nearest-rank median the second.
  assert.equal(nearestRank([5, 10, 20, 30], 50), 10);
  assert.deepEqual(await topCampaigns(team.id, RANGE, 10), [
    { campaign: "spring", leads: 4, qualifiedPercent: 75, medianMinutesToContact: 10 },
    { campaign: "newsletter", leads: 2, qualifiedPercent: 0, medianMinutesToContact: null },
  ]);
  assert.deepEqual(
    (await topCampaigns(team.id, RANGE, 1)).map((row) => row.campaign),
    ["spring"],
  );
  assert.deepEqual(await topCampaigns(team.id, RANGE, 0), []);
});

test("owners: assigned, contacted and the median minutes to first contact (an odd count: the middle), unassigned last", async () => {
  assert.equal(nearestRank([5, 10, 20], 50), 10);
  assert.ok(inBucket(30) <= 30 && inBucket(30) > 30 / 1.05 && inBucket(40) <= 40 && inBucket(40) > 40 / 1.05);
  assert.deepEqual(await owners(team.id, RANGE), [
    { ownerId: ada.id, name: "Ada Owner", assigned: 3, contacted: 3, medianMinutesToContact: 10 },
    // No name: the email.
    // Read from a histogram (contact-buckets.ts): the lower bound of the 5 % bucket holding 30 and 40 minutes.
    { ownerId: bob.id, name: bob.email, assigned: 2, contacted: 1, medianMinutesToContact: inBucket(30) },
    { ownerId: null, name: "Unassigned", assigned: 2, contacted: 1, medianMinutesToContact: inBucket(40) },
  ]);
});

test("a contact recorded before the creation (a clock step) counts as 0 minutes", async () => {
  const range = { from: new Date("2026-05-01T00:00:00Z"), to: new Date("2026-05-02T00:00:00Z") };
  const id = await lead(team.id, {
    at: "2026-05-01T10:00:00Z",
    group: "Direct",
    status: "contacted",
    owner: ada,
    contactAfter: -3,
    campaign: "step",
  });
  assert.deepEqual(await topCampaigns(team.id, range, 10), [
    { campaign: "step", leads: 1, qualifiedPercent: 0, medianMinutesToContact: 0 },
  ]);
  await db().lead.delete({ where: { id } });
});

test("spam set aside per day, days without any included", async () => {
  assert.deepEqual(
    await spamPerDay(team.id, RANGE),
    DAYS.map((day) => ({ day, count: day === "2026-03-25" ? 2 : day === "2026-04-07" ? 1 : 0 })),
  );
});

test("every statement reads a rollup table's key, the covering index (teamId, createdAt, …) or a lookup by the lead, never the team's leads one by one", async (t) => {
  const statements = overviewStatements(team.id, RANGE);
  if (database.provider === "postgres") {
    // Too few rows for the planner to prefer an index: only that each statement plans.
    for (const [name, statement] of Object.entries(statements)) {
      const plan = await db().$queryRaw<{ "QUERY PLAN": string }[]>(sql`EXPLAIN ${statement}`);
      assert.ok(plan.length > 0, name);
    }
    t.diagnostic("PostgreSQL: plans at a million leads are in docs/attribution.md");
    return;
  }
  for (const [name, statement] of Object.entries(statements)) {
    const plan = (await db().$queryRaw<{ detail: string }[]>(sql`EXPLAIN QUERY PLAN ${statement}`)).map((row) => row.detail);
    // A subquery's own rows (SCAN q, SCAN u) are not a table's.
    const reads = plan.filter((detail) => /^(SCAN|SEARCH) (\w+)\b/.test(detail) && !/^SCAN (q|u)$/.test(detail));
    assert.ok(reads.length > 0, `${name}: ${plan.join(" | ")}`);
    for (const read of reads) {
      assert.match(
        read,
        /^SEARCH (l USING (COVERING )?INDEX Lead_teamId_createdAt_overview_idx \(teamId=\? AND createdAt>\? AND createdAt<\?\)|QuarantinedLead USING COVERING INDEX QuarantinedLead_teamId_createdAt_idx \(teamId=\? AND createdAt>\? AND createdAt<\?\)|AuditEvent USING INDEX AuditEvent_teamId_action_createdAt_idx \(teamId=\? AND action=\? AND createdAt>\?\)|l USING INDEX sqlite_autoindex_Lead_1 \(id=\?\)|a USING INDEX AuditEvent_teamId_targetId_createdAt_idx \(teamId=\? AND targetId=\?\)|DashboardDayCount USING INDEX sqlite_autoindex_DashboardDayCount_1 \(teamId=\? AND dim=\? AND day>\? AND day<\?\)|DashboardDayContact USING INDEX sqlite_autoindex_DashboardDayContact_1 \(teamId=\? AND dim=\? AND key=\? AND day>\? AND day<\?\))$/,
        `${name}: ${plan.join(" | ")}`,
      );
    }
  }
});
