import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { CHANNEL_GROUPS, isChannelGroup, type ChannelGroup } from "../attribution/channel-groups";
import { db } from "../db/client";
import { histogramMedianMinutes } from "./contact-buckets";
import { factsSql, liveContactSql, liveCountsSql, type Dim } from "./dashboard-day-facts";
import { rollupReader, settledContactSql, settledCountsSql } from "./dashboard-rollup";
import type {
  Breakdown,
  CampaignRow,
  ChannelGroupCount,
  FunnelStep,
  Interval,
  LeadsOverTime,
  OverviewRange,
  OwnerRow,
  Series,
  SpamDay,
} from "./overview";
import { DAY_MS, dayOf, inRange, isoDay, num } from "./overview-sql";

// Leads → Overview's figures (issue 43; docs/attribution.md "Dashboard queries and their
// speed"): the one module that answers the dashboard. The leads' figures come from the per-day
// rollup (lib/dashboard/dashboard-rollup.ts: settled days from its tables, today and yesterday
// computed live by the same function), so a range reads a row per day and key, never a row per
// lead of a settled day. Spam per day is counted live from QuarantinedLead's index (cheap: a
// covering index of one narrow table).
//
// Definitions, shared with speed to lead (lib/leads/speed-to-lead.ts):
// - A range's leads: createdAt in [from, to). The previous period: [from − (to − from), from).
// - Contacted: firstContactedAt is set, the first time the status left New (lib/leads/
//   lead-ownership.ts; never reset, and every lead is created New), so "left New at some point".
// - Ever reached Qualified: its status is qualified now, or a lead.status_changed audit event
//   about it (targetId: the lead's id) has details.to "qualified".
// - Time to first contact: firstContactedAt − createdAt, 0 when a clock step made it negative.
//   The median is nearest-rank (the ⌈n / 2⌉-th smallest, as speed to lead's nearestRank(…, 50)),
//   read from a histogram: the lower bound of the bucket holding it (lib/dashboard/
//   contact-buckets.ts: exact to the minute below 10 minutes, at most 5 % low above).
// - Days are UTC days; a week starts on Monday (ISO). Leads are counted per day and the days
//   summed into weeks here.

/** The previous period: as long as `range`, ending where it starts. */
export function previousRange(range: OverviewRange): OverviewRange {
  const length = range.to.getTime() - range.from.getTime();
  return { from: new Date(range.from.getTime() - length), to: range.from };
}

const BREAKDOWN_DIMS: Record<Breakdown, Dim> = {
  channelGroup: "channelGroup",
  source: "source",
  form: "form",
  connection: "connection",
  apiKey: "apiKey",
};

// ——— Buckets ———

/** The first day (UTC midnight) of the bucket holding `date`: its day, or the Monday on or before it. */
export function bucketStart(date: Date, interval: Interval): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  if (interval === "day") return day;
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

/** Every bucket of the range, empty ones included: each one's first day, YYYY-MM-DD. */
export function bucketsOf(range: OverviewRange, interval: Interval): string[] {
  if (range.to.getTime() <= range.from.getTime()) return [];
  const step = interval === "day" ? DAY_MS : 7 * DAY_MS;
  const last = bucketStart(new Date(range.to.getTime() - 1), interval).getTime();
  const buckets: string[] = [];
  for (let at = bucketStart(range.from, interval).getTime(); at <= last; at += step) buckets.push(isoDay(new Date(at)));
  return buckets;
}

// ——— Leads over time ———

/** The range's leads per bucket, one series per value of the breakdown, and the previous period's total. */
export async function leadsOverTime(
  teamId: string,
  range: OverviewRange,
  interval: Interval,
  breakdown: Breakdown,
): Promise<LeadsOverTime> {
  const buckets = bucketsOf(range, interval);
  const [current, previous] = await Promise.all([rollupReader(teamId, range), rollupReader(teamId, previousRange(range))]);
  const [rows, before] = await Promise.all([
    current.counts(BREAKDOWN_DIMS[breakdown], { byDay: true, qualified: false }),
    previous.counts("all", { byDay: false, qualified: false }),
  ]);
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const counts = new Map<string, number[]>();
  let total = 0;
  for (const row of rows) {
    if (!row.leads) continue;
    const bucket = interval === "day" ? row.day : isoDay(bucketStart(new Date(`${row.day}T00:00:00Z`), "week"));
    const at = index.get(bucket);
    if (at === undefined) continue;
    let series = counts.get(row.key);
    if (!series) counts.set(row.key, (series = buckets.map(() => 0)));
    series[at]! += row.leads;
    total += row.leads;
  }
  const labels = await seriesLabels(teamId, breakdown, [...counts.keys()]);
  const series: Series[] = [...counts].map(([key, values]) => ({ key, label: labels.get(key) ?? key, counts: values }));
  const sum = (s: Series) => s.counts.reduce((a, b) => a + b, 0);
  // Channel groups in their one order (the legend reads the same in every range); other series by size.
  const rank = (s: Series) => (breakdown === "channelGroup" ? CHANNEL_GROUPS.indexOf(s.key as ChannelGroup) : 0);
  series.sort((a, b) => rank(a) - rank(b) || sum(b) - sum(a) || compare(a.label, b.label) || compare(a.key, b.key));
  return { buckets, series, total, previousTotal: before.reduce((n, row) => n + row.leads, 0) };
}

/** Code-point order, the same on both databases and in every locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The label of "" (a lead with no form, connection or key). */
export const NONE_LABEL = "None";

/**
 * Each series key's label: a channel group's name; a source's, form's or connection's name; a
 * key's description with its id, as the lead page names it (its id alone when it has none). A form, connection or key deleted since keeps its
 * id: "Deleted key team_…" (leads name them in plain text, without a foreign key).
 */
async function seriesLabels(teamId: string, breakdown: Breakdown, keys: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const ids = keys.filter((key) => key !== "");
  if (keys.includes("")) labels.set("", NONE_LABEL);
  if (breakdown === "channelGroup") {
    for (const id of ids) labels.set(id, id);
    return labels;
  }
  const found: { id: string; name: string | null }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (breakdown === "source")
      found.push(...(await db().leadSource.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true, name: true } })));
    if (breakdown === "form")
      found.push(...(await db().webForm.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true, name: true } })));
    if (breakdown === "connection")
      found.push(...(await db().connection.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true, name: true } })));
    if (breakdown === "apiKey") {
      const keysFound = await db().apiKey.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true, description: true } });
      found.push(
        ...keysFound.map((key) => ({ id: key.id, name: key.description?.trim() ? `${key.description.trim()} (${key.id})` : key.id })),
      );
    }
  }
  for (const row of found) labels.set(row.id, row.name ?? row.id);
  for (const id of ids) if (!labels.has(id)) labels.set(id, `${DELETED_PREFIX[breakdown]} ${id}`);
  return labels;
}

const DELETED_PREFIX: Record<Exclude<Breakdown, "channelGroup">, string> = {
  source: "Deleted source",
  form: "Deleted form",
  connection: "Deleted connection",
  apiKey: "Deleted key",
};

// ——— Channel groups ———

/** Each channel group's leads in the range and in the previous period: the groups with a lead in either, most leads first (then the groups' order). */
export async function channelGroupCounts(teamId: string, range: OverviewRange): Promise<ChannelGroupCount[]> {
  const [current, previous] = await Promise.all([rollupReader(teamId, range), rollupReader(teamId, previousRange(range))]);
  const [now, before] = await Promise.all([
    current.counts("channelGroup", { byDay: false, qualified: false }),
    previous.counts("channelGroup", { byDay: false, qualified: false }),
  ]);
  const order = (group: string) => (isChannelGroup(group) ? CHANNEL_GROUPS.indexOf(group) : CHANNEL_GROUPS.length);
  const sums = new Map<ChannelGroup, ChannelGroupCount>();
  for (const [rows, field] of [
    [now, "leads"],
    [before, "previous"],
  ] as const) {
    for (const row of rows) {
      if (!isChannelGroup(row.key) || !row.leads) continue;
      const sum = sums.get(row.key) ?? { channelGroup: row.key, leads: 0, previous: 0 };
      sum[field] += row.leads;
      sums.set(row.key, sum);
    }
  }
  return [...sums.values()].sort((a, b) => b.leads - a.leads || order(a.channelGroup) - order(b.channelGroup));
}

// ——— Status funnel ———

/** New → Contacted → Qualified of the range's leads: how many ever reached each step, and the drop from the step before (percent). */
export async function statusFunnel(teamId: string, range: OverviewRange): Promise<FunnelStep[]> {
  const [all] = await (await rollupReader(teamId, range)).counts("all", { byDay: false, qualified: true });
  const total = all?.leads ?? 0;
  const contacted = all?.contacted ?? 0;
  const qualified = all?.qualified ?? 0;
  return [
    { status: "new", reached: total, dropOffPercent: null },
    { status: "contacted", reached: contacted, dropOffPercent: dropOff(total, contacted) },
    { status: "qualified", reached: qualified, dropOffPercent: dropOff(contacted, qualified) },
  ];
}

/** The share (percent) of `from` that did not reach the next step; null when `from` is 0. */
const dropOff = (from: number, reached: number) => (from === 0 ? null : ((from - reached) / from) * 100);

// ——— Campaigns ———

/**
 * The range's `limit` campaigns (utm_campaign of the last touch; leads without one left out)
 * with the most leads (ties: the campaign's name in code-point order): their leads, the share
 * that ever reached Qualified, and the median minutes to first contact.
 */
export async function topCampaigns(teamId: string, range: OverviewRange, limit: number): Promise<CampaignRow[]> {
  const take = Math.max(0, Math.floor(limit));
  if (!take) return [];
  const reader = await rollupReader(teamId, range);
  const top = (await reader.counts("campaign", { byDay: false, qualified: true }))
    .filter((row) => row.key !== "" && row.leads > 0)
    .sort((a, b) => b.leads - a.leads || compare(a.key, b.key))
    .slice(0, take);
  if (!top.length) return [];
  const histograms = await reader.contact(
    "campaign",
    top.map((row) => row.key),
  );
  return top.map((row) => ({
    campaign: row.key,
    leads: row.leads,
    qualifiedPercent: row.leads ? (row.qualified / row.leads) * 100 : null,
    medianMinutesToContact: histogramMedianMinutes(histograms.get(row.key) ?? new Map()),
  }));
}

// ——— Owners ———

/** The name of the row of the range's unassigned leads. */
export const UNASSIGNED_LABEL = "Unassigned";

/**
 * Per owner now (null: unassigned) of the range's leads: how many, how many contacted, and their
 * median minutes to first contact; most leads first (ties: the name). An owner's name is the
 * user's name, else their email.
 */
export async function owners(teamId: string, range: OverviewRange): Promise<OwnerRow[]> {
  const reader = await rollupReader(teamId, range);
  const rows = (await reader.counts("owner", { byDay: false, qualified: false })).filter((row) => row.leads > 0);
  const histograms = await reader.contact(
    "owner",
    rows.map((row) => row.key),
  );
  const ids = rows.map((row) => row.key).filter((id) => id !== "");
  const users = ids.length ? await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }) : [];
  const names = new Map(users.map((user) => [user.id, user.name?.trim() || user.email]));
  return rows
    .map((row) => ({
      ownerId: row.key === "" ? null : row.key,
      name: row.key === "" ? UNASSIGNED_LABEL : (names.get(row.key) ?? row.key),
      assigned: row.leads,
      contacted: row.contacted,
      medianMinutesToContact: histogramMedianMinutes(histograms.get(row.key) ?? new Map()),
    }))
    .sort((a, b) => b.assigned - a.assigned || Number(a.ownerId === null) - Number(b.ownerId === null) || compare(a.name, b.name));
}

// ——— Spam ———

const spamSql = (teamId: string, range: OverviewRange) =>
  sql`SELECT ${dayOf('"createdAt"')} AS "day", COUNT(*) AS "n" FROM "QuarantinedLead" WHERE ${inRange(teamId, range)} GROUP BY 1`;

/** Submissions the spam checks set aside (QuarantinedLead, by its createdAt) on each UTC day of the range, days without any included. */
export async function spamPerDay(teamId: string, range: OverviewRange): Promise<SpamDay[]> {
  const rows = await db().$queryRaw<{ day: string; n: number | bigint }[]>(spamSql(teamId, range));
  const counts = new Map(rows.map((row) => [row.day, num(row.n)]));
  return bucketsOf(range, "day").map((day) => ({ day, count: counts.get(day) ?? 0 }));
}

/**
 * Every statement the dashboard runs for a range, by name (the campaigns' with two example
 * names): for the query-plan checks (overview-store.test.ts) and the bench.
 */
export function overviewStatements(teamId: string, range: OverviewRange): Record<string, Sql> {
  const campaigns = ["campaign-1", "campaign-2"];
  return {
    recomputeFacts: factsSql(teamId, range),
    liveCounts: liveCountsSql(teamId, range, "campaign", true),
    liveContact: liveContactSql(teamId, range, "owner", ["user-1", "user-2"]),
    settledPerDay: settledCountsSql(teamId, range.from, range.to, "channelGroup", true),
    settledPerKey: settledCountsSql(teamId, range.from, range.to, "campaign", false),
    settledContact: settledContactSql(teamId, range.from, range.to, "campaign", campaigns),
    spam: spamSql(teamId, range),
  };
}
