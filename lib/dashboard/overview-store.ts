import { db } from "../db/client";
import { CHANNEL_GROUPS, type ChannelGroup } from "../attribution/channel-groups";
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

// Leads → Overview's aggregates (issue 43). A minimal stand-in written with the page so that
// it renders real data: plain Prisma counts, groupBys and two-column reads bucketed here.
// The dashboard's own aggregates replace this file; its exports and signatures stay.

const DAY_MS = 24 * 60 * 60 * 1000;

const created = (range: OverviewRange) => ({ gte: range.from, lt: range.to });

function previous(range: OverviewRange): OverviewRange {
  const length = range.to.getTime() - range.from.getTime();
  return { from: new Date(range.from.getTime() - length), to: range.from };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The first day (UTC) of the bucket holding `date`: the day, or the Monday of its ISO week. */
function bucketStart(date: Date, interval: Interval): string {
  const day = new Date(`${isoDay(date)}T00:00:00Z`);
  if (interval === "week") day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return isoDay(day);
}

function bucketsOf(range: OverviewRange, interval: Interval): string[] {
  const buckets: string[] = [];
  for (let at = range.from.getTime(); at < range.to.getTime(); at += DAY_MS) {
    const start = bucketStart(new Date(at), interval);
    if (buckets.at(-1) !== start) buckets.push(start);
  }
  return buckets;
}

const BREAKDOWN_COLUMN = {
  channelGroup: "channelGroup",
  source: "sourceId",
  form: "formId",
  connection: "connectionId",
  apiKey: "apiKeyId",
} as const;

async function seriesLabels(teamId: string, breakdown: Breakdown, keys: string[]): Promise<Map<string, string>> {
  const ids = keys.filter(Boolean);
  const none = { source: "No source", form: "No form", connection: "No connection", apiKey: "No API key", channelGroup: "" }[breakdown];
  const labels = new Map<string, string>([["", none]]);
  if (breakdown === "channelGroup") for (const key of ids) labels.set(key, key);
  if (breakdown === "source") {
    for (const row of await db().leadSource.findMany({ where: { teamId, id: { in: ids } }, select: { id: true, name: true } }))
      labels.set(row.id, row.name);
  }
  if (breakdown === "form") {
    for (const row of await db().webForm.findMany({ where: { teamId, id: { in: ids } }, select: { id: true, name: true } }))
      labels.set(row.id, row.name);
  }
  if (breakdown === "connection") {
    for (const row of await db().connection.findMany({ where: { teamId, id: { in: ids } }, select: { id: true, name: true } }))
      labels.set(row.id, row.name);
  }
  if (breakdown === "apiKey") {
    for (const row of await db().apiKey.findMany({ where: { teamId, id: { in: ids } }, select: { id: true, description: true } }))
      labels.set(row.id, row.description ? `${row.description} (${row.id})` : row.id);
  }
  return labels;
}

export async function leadsOverTime(
  teamId: string,
  range: OverviewRange,
  interval: Interval,
  breakdown: Breakdown,
): Promise<LeadsOverTime> {
  const column = BREAKDOWN_COLUMN[breakdown];
  const [rows, previousTotal] = await Promise.all([
    db().lead.findMany({
      where: { teamId, createdAt: created(range) },
      select: { createdAt: true, channelGroup: true, sourceId: true, formId: true, connectionId: true, apiKeyId: true },
    }),
    db().lead.count({ where: { teamId, createdAt: created(previous(range)) } }),
  ]);
  const buckets = bucketsOf(range, interval);
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const counts = new Map<string, number[]>();
  for (const row of rows) {
    const key = typeof row[column] === "string" ? (row[column] as string) : "";
    const at = index.get(bucketStart(row.createdAt, interval));
    if (at === undefined) continue;
    if (!counts.has(key))
      counts.set(
        key,
        buckets.map(() => 0),
      );
    const values = counts.get(key)!;
    values[at] = (values[at] ?? 0) + 1;
  }
  const labels = await seriesLabels(teamId, breakdown, [...counts.keys()]);
  const order = (key: string) => (breakdown === "channelGroup" ? CHANNEL_GROUPS.indexOf(key as ChannelGroup) : 0);
  const series: Series[] = [...counts.entries()]
    .map(([key, values]) => ({ key, label: labels.get(key) ?? key, counts: values }))
    .sort((a, b) => order(a.key) - order(b.key) || (a.key === "" ? 1 : b.key === "" ? -1 : a.label.localeCompare(b.label)));
  return { buckets, series, total: rows.length, previousTotal };
}

export async function channelGroupCounts(teamId: string, range: OverviewRange): Promise<ChannelGroupCount[]> {
  const count = (r: OverviewRange) =>
    db().lead.groupBy({ by: ["channelGroup"], where: { teamId, createdAt: created(r) }, _count: { _all: true } });
  const [now, before] = await Promise.all([count(range), count(previous(range))]);
  const of = (rows: typeof now, group: string) => rows.find((row) => row.channelGroup === group)?._count._all ?? 0;
  return CHANNEL_GROUPS.filter((group) => of(now, group) || of(before, group)).map((group) => ({
    channelGroup: group,
    leads: of(now, group),
    previous: of(before, group),
  }));
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const minutesToContact = (lead: { createdAt: Date; firstContactedAt: Date | null }) =>
  lead.firstContactedAt ? Math.max(0, (lead.firstContactedAt.getTime() - lead.createdAt.getTime()) / 60_000) : null;

/** The ids among `leadIds` that were ever Qualified: qualified now, or a status change to it in the audit log. */
async function everQualified(teamId: string, leads: { id: string; status: string }[]): Promise<Set<string>> {
  const reached = new Set(leads.filter((lead) => lead.status === "qualified").map((lead) => lead.id));
  const ids = leads.filter((lead) => !reached.has(lead.id)).map((lead) => lead.id);
  for (let i = 0; i < ids.length; i += 500) {
    const events = await db().auditEvent.findMany({
      where: { teamId, action: "lead.status_changed", targetId: { in: ids.slice(i, i + 500) } },
      select: { targetId: true, details: true },
    });
    for (const event of events) {
      const to = (event.details as { to?: unknown } | null)?.to;
      if (to === "qualified" && event.targetId) reached.add(event.targetId);
    }
  }
  return reached;
}

export async function topCampaigns(teamId: string, range: OverviewRange, limit: number): Promise<CampaignRow[]> {
  const groups = await db().lead.groupBy({
    by: ["utmCampaign"],
    where: { teamId, createdAt: created(range), AND: [{ utmCampaign: { not: null } }, { utmCampaign: { not: "" } }] },
    _count: { _all: true },
    orderBy: [{ _count: { utmCampaign: "desc" } }, { utmCampaign: "asc" }],
    take: limit,
  });
  const campaigns = groups.map((group) => group.utmCampaign!).filter(Boolean);
  const leads = await db().lead.findMany({
    where: { teamId, createdAt: created(range), utmCampaign: { in: campaigns } },
    select: { id: true, status: true, utmCampaign: true, createdAt: true, firstContactedAt: true },
  });
  const qualified = await everQualified(teamId, leads);
  return groups.map((group) => {
    const own = leads.filter((lead) => lead.utmCampaign === group.utmCampaign);
    return {
      campaign: group.utmCampaign!,
      leads: group._count._all,
      qualifiedPercent: own.length ? (own.filter((lead) => qualified.has(lead.id)).length / own.length) * 100 : null,
      medianMinutesToContact: median(own.map(minutesToContact).filter((m): m is number => m !== null)),
    };
  });
}

export async function statusFunnel(teamId: string, range: OverviewRange): Promise<FunnelStep[]> {
  const leads = await db().lead.findMany({
    where: { teamId, createdAt: created(range) },
    select: { id: true, status: true, firstContactedAt: true },
  });
  const qualified = await everQualified(teamId, leads);
  const reached = [leads.length, leads.filter((lead) => lead.firstContactedAt !== null || qualified.has(lead.id)).length, qualified.size];
  const statuses = ["new", "contacted", "qualified"] as const;
  return statuses.map((status, i) => ({
    status,
    reached: reached[i]!,
    dropOffPercent: i === 0 ? null : reached[i - 1] ? ((reached[i - 1]! - reached[i]!) / reached[i - 1]!) * 100 : null,
  }));
}

export async function owners(teamId: string, range: OverviewRange): Promise<OwnerRow[]> {
  const leads = await db().lead.findMany({
    where: { teamId, createdAt: created(range) },
    select: { ownerId: true, createdAt: true, firstContactedAt: true, owner: { select: { name: true, email: true } } },
  });
  const rows = new Map<string | null, OwnerRow & { minutes: number[] }>();
  for (const lead of leads) {
    let row = rows.get(lead.ownerId);
    if (!row) {
      const name = lead.owner ? lead.owner.name || lead.owner.email : "Unassigned";
      row = { ownerId: lead.ownerId, name, assigned: 0, contacted: 0, medianMinutesToContact: null, minutes: [] };
      rows.set(lead.ownerId, row);
    }
    row.assigned++;
    const minutes = minutesToContact(lead);
    if (minutes !== null) {
      row.contacted++;
      row.minutes.push(minutes);
    }
  }
  return [...rows.values()]
    .sort((a, b) => (a.ownerId === null ? 1 : b.ownerId === null ? -1 : b.assigned - a.assigned || a.name.localeCompare(b.name)))
    .map(({ minutes, ...row }) => ({ ...row, medianMinutesToContact: median(minutes) }));
}

export async function spamPerDay(teamId: string, range: OverviewRange): Promise<SpamDay[]> {
  const rows = await db().quarantinedLead.findMany({ where: { teamId, createdAt: created(range) }, select: { createdAt: true } });
  const days = bucketsOf(range, "day");
  const counts = new Map(days.map((day) => [day, 0]));
  for (const row of rows) {
    const day = isoDay(row.createdAt);
    if (counts.has(day)) counts.set(day, counts.get(day)! + 1);
  }
  return days.map((day) => ({ day, count: counts.get(day)! }));
}
