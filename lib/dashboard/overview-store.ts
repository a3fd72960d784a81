import { join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { CHANNEL_GROUPS, isChannelGroup, type ChannelGroup } from "../attribution/channel-groups";
import { pgTime, sqliteTime } from "../db/column-values";
import { db } from "../db/client";
import { env } from "../env";
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

// Leads → Overview's aggregates (issue 43; docs/attribution.md "Dashboard queries and their
// speed"): the one module that reads the database for the dashboard. Every figure is counted in
// the database (GROUP BY over a range of the index (teamId, createdAt, …), which holds every
// column these read, so the scans touch no lead row; on SQLite one day at a time, piecesOf); what
// comes back is a row per bucket and series, campaign or owner, never a row per lead.
//
// Definitions, shared with speed to lead (lib/leads/speed-to-lead.ts):
// - A range's leads: createdAt in [from, to). The previous period: [from − (to − from), from).
// - Contacted: firstContactedAt is set, the first time the status left New (lib/leads/
//   lead-ownership.ts; never reset, and every lead is created New), so "left New at some point".
// - Ever reached Qualified: its status is qualified now, or a lead.status_changed audit event
//   about it (targetId: the lead's id) has details.to "qualified". Such an event comes after the
//   lead's creation, so only the events since the range's start are read (the (teamId, action,
//   createdAt) index), and the leads they name that are not qualified now are added to those that
//   are (a lookup by id each).
// - Time to first contact: firstContactedAt − createdAt, 0 when a clock step made it negative.
//   The median is nearest-rank, as speed to lead's nearestRank(…, 50): with the n times sorted,
//   t_k with k = ⌈n / 2⌉ (the lower middle one of an even count). In SQL: PostgreSQL's
//   percentile_disc(0.5), which is exactly that; SQLite has no percentile function, so each
//   group's times are numbered (ROW_NUMBER and COUNT over the group, ordered by time) and the
//   row numbered (n + 1) / 2 (integer division) is kept.
// - Days are UTC days; a week starts on Monday (ISO). Leads are counted per day in SQL and the
//   days summed into weeks here (at most one row per day and series leaves the database).

const DAY_MS = 24 * 60 * 60 * 1000;

const postgres = () => env().DATABASE_PROVIDER === "postgres";

/** A timestamp parameter as each database stores it (Prisma's SQLite adapter: ISO text with +00:00; PostgreSQL: timestamp(3) in UTC). */
function time(date: Date): Sql {
  return postgres() ? sql`CAST(${pgTime(date)} AS timestamp(3))` : sql`${sqliteTime(date)}`;
}

/** The UTC day (YYYY-MM-DD) of a timestamp column, as text. */
function dayOf(column: string): Sql {
  return raw(postgres() ? `to_char(${column}, 'YYYY-MM-DD')` : `substr(${column}, 1, 10)`);
}

/** Milliseconds from a lead's creation to its first contact, 0 when negative (a clock step). */
function msToContact(alias = ""): Sql {
  const created = `${alias}"createdAt"`;
  const contacted = `${alias}"firstContactedAt"`;
  return raw(
    postgres()
      ? `GREATEST(0, CAST(EXTRACT(EPOCH FROM (${contacted} - ${created})) * 1000 AS double precision))`
      : `MAX(0, ROUND((julianday(${contacted}) - julianday(${created})) * 86400000))`,
  );
}

/** The previous period: as long as `range`, ending where it starts. */
export function previousRange(range: OverviewRange): OverviewRange {
  const length = range.to.getTime() - range.from.getTime();
  return { from: new Date(range.from.getTime() - length), to: range.from };
}

/** The team's leads created in the range (for a WHERE clause on "Lead", optionally aliased). */
function inRange(teamId: string, range: OverviewRange, alias = ""): Sql {
  return sql`${raw(`${alias}"teamId"`)} = ${teamId} AND ${raw(`${alias}"createdAt"`)} >= ${time(range.from)} AND ${raw(
    `${alias}"createdAt"`,
  )} < ${time(range.to)}`;
}

/**
 * The pieces a GROUP BY over the range is run in. PostgreSQL: the range, one statement (a hash
 * aggregate). SQLite has no hash aggregate: a GROUP BY sorts its rows, and a sort larger than the
 * connection's page cache (2 MB by default) spills to temporary files; a 90-day GROUP BY of a
 * million leads took seconds. So on SQLite each UTC day (or, past MAX_PIECES days, each run of
 * days) is grouped alone in a UNION ALL of one SELECT per piece, each sort a day's leads, held in
 * memory, and the pieces' rows are summed here.
 */
export function piecesOf(range: OverviewRange): (OverviewRange & { day: string })[] {
  if (postgres() || range.to.getTime() <= range.from.getTime()) return [{ ...range, day: isoDay(range.from) }];
  const days = Math.ceil((range.to.getTime() - bucketStart(range.from, "day").getTime()) / DAY_MS);
  const step = Math.max(1, Math.ceil(days / MAX_PIECES)) * DAY_MS;
  const pieces: (OverviewRange & { day: string })[] = [];
  for (let at = bucketStart(range.from, "day").getTime(); at < range.to.getTime(); at += step) {
    const from = new Date(Math.max(at, range.from.getTime()));
    pieces.push({ from, to: new Date(Math.min(at + step, range.to.getTime())), day: isoDay(new Date(at)) });
  }
  return pieces;
}

/** SQLite's limit on a compound SELECT's terms is 500. */
const MAX_PIECES = 400;

/** One SELECT per piece of the range (piecesOf), in a UNION ALL. */
function perPiece(range: OverviewRange, select: (piece: OverviewRange & { day: string }) => Sql): Sql {
  return join(
    piecesOf(range).map((piece) => select(piece)),
    " UNION ALL ",
  );
}

const num = (value: number | bigint | string | null | undefined) => (value === null || value === undefined ? 0 : Number(value));

const BREAKDOWN_COLUMNS: Record<Breakdown, string> = {
  channelGroup: "channelGroup",
  source: "sourceId",
  form: "formId",
  connection: "connectionId",
  apiKey: "apiKeyId",
};

// ——— Buckets ———

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

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

/** The range's leads per UTC day and value of the breakdown's column (on SQLite, a SELECT per day: piecesOf). */
function leadsPerDaySql(teamId: string, range: OverviewRange, breakdown: Breakdown): Sql {
  const column = raw(`"${BREAKDOWN_COLUMNS[breakdown]}"`);
  if (postgres()) {
    return sql`SELECT ${dayOf('"createdAt"')} AS "day", ${column} AS "key", COUNT(*) AS "n" FROM "Lead"
      WHERE ${inRange(teamId, range)} GROUP BY 1, 2`;
  }
  return perPiece(
    range,
    (piece) => sql`SELECT ${dayOf('"createdAt"')} AS "day", ${column} AS "key", COUNT(*) AS "n" FROM "Lead"
      WHERE ${inRange(teamId, piece)} GROUP BY 1, 2`,
  );
}

const leadCountSql = (teamId: string, range: OverviewRange) => sql`SELECT COUNT(*) AS "n" FROM "Lead" WHERE ${inRange(teamId, range)}`;

/** The range's leads per bucket, one series per value of the breakdown, and the previous period's total. */
export async function leadsOverTime(
  teamId: string,
  range: OverviewRange,
  interval: Interval,
  breakdown: Breakdown,
): Promise<LeadsOverTime> {
  const buckets = bucketsOf(range, interval);
  const previous = previousRange(range);
  const [rows, before] = await Promise.all([
    db().$queryRaw<{ day: string; key: string | null; n: number | bigint }[]>(leadsPerDaySql(teamId, range, breakdown)),
    db().$queryRaw<{ n: number | bigint }[]>(leadCountSql(teamId, previous)),
  ]);
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const counts = new Map<string, number[]>();
  let total = 0;
  for (const row of rows) {
    const bucket = interval === "day" ? row.day : isoDay(bucketStart(new Date(`${row.day}T00:00:00Z`), "week"));
    const at = index.get(bucket);
    if (at === undefined) continue;
    const key = row.key ?? "";
    let series = counts.get(key);
    if (!series) counts.set(key, (series = buckets.map(() => 0)));
    series[at]! += num(row.n);
    total += num(row.n);
  }
  const labels = await seriesLabels(teamId, breakdown, [...counts.keys()]);
  const series: Series[] = [...counts].map(([key, values]) => ({ key, label: labels.get(key) ?? key, counts: values }));
  const sum = (s: Series) => s.counts.reduce((a, b) => a + b, 0);
  // Channel groups in their one order (the legend reads the same in every range); other series by size.
  const rank = (s: Series) => (breakdown === "channelGroup" ? CHANNEL_GROUPS.indexOf(s.key as ChannelGroup) : 0);
  series.sort((a, b) => rank(a) - rank(b) || sum(b) - sum(a) || compare(a.label, b.label) || compare(a.key, b.key));
  return { buckets, series, total, previousTotal: num(before[0]?.n) };
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

/** Each channel group's leads in the previous period and the range, by piece (piecesOf). */
function channelGroupSql(teamId: string, range: OverviewRange): Sql {
  const both = { from: previousRange(range).from, to: range.to };
  return perPiece(
    both,
    (piece) => sql`SELECT "channelGroup" AS "group",
      SUM(CASE WHEN "createdAt" >= ${time(range.from)} THEN 1 ELSE 0 END) AS "leads",
      SUM(CASE WHEN "createdAt" < ${time(range.from)} THEN 1 ELSE 0 END) AS "previous"
    FROM "Lead" WHERE ${inRange(teamId, piece)} GROUP BY "channelGroup"`,
  );
}

/** Each channel group's leads in the range and in the previous period: the groups with a lead in either, most leads first (then the groups' order). */
export async function channelGroupCounts(teamId: string, range: OverviewRange): Promise<ChannelGroupCount[]> {
  const rows = await db().$queryRaw<{ group: string; leads: number | bigint | null; previous: number | bigint | null }[]>(
    channelGroupSql(teamId, range),
  );
  const order = (group: string) => (isChannelGroup(group) ? CHANNEL_GROUPS.indexOf(group) : CHANNEL_GROUPS.length);
  const sums = new Map<ChannelGroup, ChannelGroupCount>();
  for (const row of rows) {
    if (!isChannelGroup(row.group)) continue;
    const sum = sums.get(row.group) ?? { channelGroup: row.group, leads: 0, previous: 0 };
    sum.leads += num(row.leads);
    sum.previous += num(row.previous);
    sums.set(row.group, sum);
  }
  return [...sums.values()].sort((a, b) => b.leads - a.leads || order(a.channelGroup) - order(b.channelGroup));
}

// ——— Ever reached Qualified ———

/**
 * The range's leads not qualified now that a lead.status_changed event took to Qualified: their
 * ids, distinct, from the team's status changes since the range's start, each lead then found by
 * its id. `where` narrows the leads (alias "l"); `select` and `groupBy` shape the result.
 */
function qualifiedBeforeSql(teamId: string, range: OverviewRange, select: Sql, where: Sql | null, groupBy: Sql | null): Sql {
  const toQualified = raw(postgres() ? `"details"->>'to' = 'qualified'` : `json_extract("details", '$.to') = 'qualified'`);
  // CROSS JOIN: SQLite keeps the events as the outer loop (a lookup of each lead by id) rather
  // than walking the range's leads and probing the events.
  return sql`SELECT ${select} FROM (SELECT DISTINCT "targetId" AS "id" FROM "AuditEvent"
      WHERE "teamId" = ${teamId} AND "action" = 'lead.status_changed' AND "createdAt" >= ${time(range.from)} AND ${toQualified}) AS q
    CROSS JOIN "Lead" AS l
    WHERE l."id" = q."id" AND ${inRange(teamId, range, "l.")} AND l."status" <> 'qualified'${where ? sql` AND ${where}` : sql``}${
      groupBy ? sql` GROUP BY ${groupBy}` : sql``
    }`;
}

// ——— Status funnel ———

/** The range's leads, those contacted and those qualified now. */
function funnelSql(teamId: string, range: OverviewRange): Sql {
  return sql`SELECT COUNT(*) AS "total",
      SUM(CASE WHEN "firstContactedAt" IS NOT NULL THEN 1 ELSE 0 END) AS "contacted",
      SUM(CASE WHEN "status" = 'qualified' THEN 1 ELSE 0 END) AS "qualified"
    FROM "Lead" WHERE ${inRange(teamId, range)}`;
}

/** New → Contacted → Qualified of the range's leads: how many ever reached each step, and the drop from the step before (percent). */
export async function statusFunnel(teamId: string, range: OverviewRange): Promise<FunnelStep[]> {
  const [counts, before] = await Promise.all([
    db().$queryRaw<{ total: number | bigint; contacted: number | bigint | null; qualified: number | bigint | null }[]>(
      funnelSql(teamId, range),
    ),
    db().$queryRaw<{ n: number | bigint }[]>(qualifiedBeforeSql(teamId, range, sql`COUNT(*) AS "n"`, null, null)),
  ]);
  const total = num(counts[0]?.total);
  const contacted = num(counts[0]?.contacted);
  const qualified = num(counts[0]?.qualified) + num(before[0]?.n);
  return [
    { status: "new", reached: total, dropOffPercent: null },
    { status: "contacted", reached: contacted, dropOffPercent: dropOff(total, contacted) },
    { status: "qualified", reached: qualified, dropOffPercent: dropOff(contacted, qualified) },
  ];
}

/** The share (percent) of `from` that did not reach the next step; null when `from` is 0. */
const dropOff = (from: number, reached: number) => (from === 0 ? null : ((from - reached) / from) * 100);

// ——— Medians ———

/** The statement of medianMsToContact. */
function medianSql(teamId: string, range: OverviewRange, keyColumn: string, only: string[] | null): Sql {
  const key = raw(`"${keyColumn}"`);
  const narrow = only ? sql` AND ${key} IN (${join(only)})` : sql``;
  const contacted = sql`SELECT ${key} AS "k", ${msToContact()} AS "ms" FROM "Lead"
    WHERE ${inRange(teamId, range)} AND "firstContactedAt" IS NOT NULL${narrow}`;
  return postgres()
    ? sql`SELECT c."k", percentile_disc(0.5) WITHIN GROUP (ORDER BY c."ms") AS "ms" FROM (${contacted}) AS c GROUP BY c."k"`
    : // One window (one sort) for both the row's number and its group's count.
      sql`SELECT r."k", r."ms" FROM (SELECT c."k", c."ms", ROW_NUMBER() OVER w AS "rn",
        COUNT(*) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS "n" FROM (${contacted}) AS c
        WINDOW w AS (PARTITION BY c."k" ORDER BY c."ms")) AS r WHERE r."rn" = (r."n" + 1) / 2`;
}

/**
 * The median time to first contact (milliseconds, nearest-rank: see the top of the file) of the
 * range's contacted leads, per value of `keyColumn` ("utmCampaign", "ownerId"), of the keys
 * `only` when given. A key (null included) with no contacted lead is absent.
 */
async function medianMsToContact(
  teamId: string,
  range: OverviewRange,
  keyColumn: string,
  only: string[] | null,
): Promise<Map<string | null, number>> {
  if (only && !only.length) return new Map();
  const rows = await db().$queryRaw<{ k: string | null; ms: number }[]>(medianSql(teamId, range, keyColumn, only));
  return new Map(rows.map((row) => [row.k, Number(row.ms)]));
}

const minutes = (ms: number | undefined) => (ms === undefined ? null : ms / 60_000);

// ——— Campaigns ———

/**
 * The range's campaigns' leads, and of them those qualified now. PostgreSQL: the `take` with the
 * most leads; SQLite: every campaign's, by piece (piecesOf), summed and cut to `take` here.
 */
function campaignsSql(teamId: string, range: OverviewRange, take: number): Sql {
  const select = (piece: OverviewRange) => sql`SELECT "utmCampaign" AS "campaign", COUNT(*) AS "leads",
      SUM(CASE WHEN "status" = 'qualified' THEN 1 ELSE 0 END) AS "qualified"
    FROM "Lead" WHERE ${inRange(teamId, piece)} AND "utmCampaign" IS NOT NULL AND "utmCampaign" <> '' GROUP BY "utmCampaign"`;
  if (!postgres()) return perPiece(range, select);
  return sql`${select(range)} ORDER BY 2 DESC, "utmCampaign" COLLATE "C" LIMIT ${take}`;
}

/** Of these campaigns, the range's leads not qualified now that once were. */
const campaignsQualifiedBeforeSql = (teamId: string, range: OverviewRange, names: string[]) =>
  qualifiedBeforeSql(
    teamId,
    range,
    sql`l."utmCampaign" AS "campaign", COUNT(*) AS "n"`,
    sql`l."utmCampaign" IN (${join(names)})`,
    sql`l."utmCampaign"`,
  );

/**
 * The range's `limit` campaigns (utm_campaign of the last touch; leads without one left out)
 * with the most leads (ties: the campaign's name in code-point order): their leads, the share
 * that ever reached Qualified, and the median minutes to first contact.
 */
export async function topCampaigns(teamId: string, range: OverviewRange, limit: number): Promise<CampaignRow[]> {
  const take = Math.max(0, Math.floor(limit));
  if (!take) return [];
  const rows = await db().$queryRaw<{ campaign: string; leads: number | bigint; qualified: number | bigint | null }[]>(
    campaignsSql(teamId, range, take),
  );
  const sums = new Map<string, { campaign: string; leads: number; qualified: number }>();
  for (const row of rows) {
    const sum = sums.get(row.campaign) ?? { campaign: row.campaign, leads: 0, qualified: 0 };
    sum.leads += num(row.leads);
    sum.qualified += num(row.qualified);
    sums.set(row.campaign, sum);
  }
  const top = [...sums.values()].sort((a, b) => b.leads - a.leads || compare(a.campaign, b.campaign)).slice(0, take);
  const names = top.map((row) => row.campaign);
  if (!names.length) return [];
  const [before, medians] = await Promise.all([
    db().$queryRaw<{ campaign: string; n: number | bigint }[]>(campaignsQualifiedBeforeSql(teamId, range, names)),
    medianMsToContact(teamId, range, "utmCampaign", names),
  ]);
  const qualifiedBefore = new Map(before.map((row) => [row.campaign, num(row.n)]));
  return top
    .map((row) => {
      const leads = row.leads;
      const qualified = row.qualified + (qualifiedBefore.get(row.campaign) ?? 0);
      return {
        campaign: row.campaign,
        leads,
        qualifiedPercent: leads ? (qualified / leads) * 100 : null,
        medianMinutesToContact: minutes(medians.get(row.campaign)),
      };
    })
    .sort((a, b) => b.leads - a.leads || compare(a.campaign, b.campaign));
}

// ——— Owners ———

/** The range's leads and contacted leads per owner now, by piece (piecesOf). */
function ownersSql(teamId: string, range: OverviewRange): Sql {
  return perPiece(
    range,
    (piece) => sql`SELECT "ownerId", COUNT(*) AS "assigned", SUM(CASE WHEN "firstContactedAt" IS NOT NULL THEN 1 ELSE 0 END) AS "contacted"
    FROM "Lead" WHERE ${inRange(teamId, piece)} GROUP BY "ownerId"`,
  );
}

/** The name of the row of the range's unassigned leads. */
export const UNASSIGNED_LABEL = "Unassigned";

/**
 * Per owner now (null: unassigned) of the range's leads: how many, how many contacted, and their
 * median minutes to first contact; most leads first (ties: the name). An owner's name is the
 * user's name, else their email.
 */
export async function owners(teamId: string, range: OverviewRange): Promise<OwnerRow[]> {
  const [rows, medians] = await Promise.all([
    db().$queryRaw<{ ownerId: string | null; assigned: number | bigint; contacted: number | bigint | null }[]>(ownersSql(teamId, range)),
    medianMsToContact(teamId, range, "ownerId", null),
  ]);
  const sums = new Map<string | null, { ownerId: string | null; assigned: number; contacted: number }>();
  for (const row of rows) {
    const sum = sums.get(row.ownerId) ?? { ownerId: row.ownerId, assigned: 0, contacted: 0 };
    sum.assigned += num(row.assigned);
    sum.contacted += num(row.contacted);
    sums.set(row.ownerId, sum);
  }
  const ids = [...sums.keys()].filter((id): id is string => id !== null);
  const users = ids.length ? await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }) : [];
  const names = new Map(users.map((user) => [user.id, user.name?.trim() || user.email]));
  return [...sums.values()]
    .map((row) => ({
      ownerId: row.ownerId,
      name: row.ownerId === null ? UNASSIGNED_LABEL : (names.get(row.ownerId) ?? row.ownerId),
      assigned: row.assigned,
      contacted: row.contacted,
      medianMinutesToContact: minutes(medians.get(row.ownerId)),
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
    ...Object.fromEntries(
      (Object.keys(BREAKDOWN_COLUMNS) as Breakdown[]).map((breakdown) => [
        `leadsPerDay:${breakdown}`,
        leadsPerDaySql(teamId, range, breakdown),
      ]),
    ),
    previousCount: leadCountSql(teamId, previousRange(range)),
    channelGroups: channelGroupSql(teamId, range),
    funnel: funnelSql(teamId, range),
    qualifiedBefore: qualifiedBeforeSql(teamId, range, sql`COUNT(*) AS "n"`, null, null),
    campaigns: campaignsSql(teamId, range, 10),
    campaignsQualifiedBefore: campaignsQualifiedBeforeSql(teamId, range, campaigns),
    campaignMedians: medianSql(teamId, range, "utmCampaign", campaigns),
    owners: ownersSql(teamId, range),
    ownerMedians: medianSql(teamId, range, "ownerId", null),
    spam: spamSql(teamId, range),
  };
}
