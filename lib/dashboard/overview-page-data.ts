import { EMPTY_FILTER, filterParams, type LeadFilter } from "../leads/lead-filter";
import { now } from "../time/clock";
import { BREAKDOWNS, INTERVALS, type Breakdown, type Interval, type OverviewRange } from "./overview";
import { channelGroupCounts, leadsOverTime, owners, spamPerDay, statusFunnel, topCampaigns } from "./overview-store";

// Leads → Overview's URL (docs/attribution.md "The dashboard"): the range, its interval and
// the chart's breakdown as the page's query string, and everything the page shows for them.
// Parsing is total: a bad or hand-edited value never fails the page; a range that cannot be
// read falls back to the last 30 days and says so (`notes`).

export const RANGE_PRESETS = ["7d", "30d", "90d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const RANGE_LABELS: Record<RangePreset | "custom", string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  custom: "Custom",
};
const PRESET_DAYS: Record<RangePreset, number> = { "7d": 7, "30d": 30, "90d": 90 };
export const DEFAULT_PRESET: RangePreset = "30d";
/** A custom range spans at most this many days (a year and a day: a leap year's 366). */
export const MAX_RANGE_DAYS = 366;
/** Day buckets up to this many days by default, weeks beyond. */
const DAILY_UP_TO = 31;
export const TOP_CAMPAIGNS = 10;

export const BREAKDOWN_LABELS: Record<Breakdown, string> = {
  channelGroup: "Channel group",
  source: "Source",
  form: "Web form",
  connection: "Connection",
  apiKey: "API key",
};

const DAY_MS = 24 * 60 * 60 * 1000;

export type OverviewParams = {
  preset: RangePreset | "custom";
  /** The leads created in [from, to). */
  range: OverviewRange;
  /** The range's first and last day (inclusive), YYYY-MM-DD, as the lead list's from/to read them. */
  fromDay: string;
  toDay: string;
  days: number;
  /** The period of the same length just before. */
  previous: { fromDay: string; toDay: string };
  interval: Interval;
  breakdown: Breakdown;
  /** What could not be read and what is shown instead, for the page to show. */
  notes: string[];
};

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function read(params: Params, name: string): string | undefined {
  const value = params instanceof URLSearchParams ? params.get(name) : params[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === "string" ? text.trim() : undefined;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => isoDay(new Date(new Date(`${day}T00:00:00Z`).getTime() + days * DAY_MS));

/** A real calendar day, YYYY-MM-DD, or null. */
function parseDay(value: string | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || isoDay(date) !== value ? null : value;
}

function customRange(params: Params, today: string): { fromDay: string; toDay: string } | string {
  const fromText = read(params, "from");
  const toText = read(params, "to");
  const fromDay = parseDay(fromText);
  const toDay = parseDay(toText);
  if (!fromDay || !toDay) return "The custom range needs a start and an end date (YYYY-MM-DD)";
  if (fromDay > toDay) return "The custom range starts after it ends";
  if (toDay > today) return "The custom range ends in the future";
  if (fromDay < "2000-01-01") return "The custom range starts before 2000";
  const days = Math.round((Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS) + 1;
  if (days > MAX_RANGE_DAYS) return `The custom range is longer than ${MAX_RANGE_DAYS} days`;
  return { fromDay, toDay };
}

/** The page's range, interval and breakdown from its query string; `at` is now. */
export function parseOverviewParams(params: Params, at: Date = now()): OverviewParams {
  const today = isoDay(at);
  const notes: string[] = [];
  const asked = read(params, "range");
  // from/to alone (a shared link, the custom form without its choice) name a custom range.
  const wantsCustom = asked === "custom" || (!asked && (read(params, "from") || read(params, "to")));
  let preset: RangePreset | "custom" = DEFAULT_PRESET;
  let fromDay: string;
  let toDay = today;
  if (wantsCustom) {
    const custom = customRange(params, today);
    if (typeof custom === "string") {
      notes.push(`${custom}: showing the last 30 days instead.`);
      fromDay = addDays(today, -(PRESET_DAYS[DEFAULT_PRESET] - 1));
    } else {
      preset = "custom";
      ({ fromDay, toDay } = custom);
    }
  } else {
    if (asked && !(RANGE_PRESETS as readonly string[]).includes(asked))
      notes.push(`Unknown range “${asked.slice(0, 20)}”: showing the last 30 days instead.`);
    else if (asked) preset = asked as RangePreset;
    fromDay = addDays(today, -(PRESET_DAYS[preset as RangePreset] - 1));
  }
  const range = { from: new Date(`${fromDay}T00:00:00Z`), to: new Date(`${addDays(toDay, 1)}T00:00:00Z`) };
  const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS);

  const intervalText = read(params, "interval");
  const interval: Interval =
    intervalText && (INTERVALS as readonly string[]).includes(intervalText)
      ? (intervalText as Interval)
      : days <= DAILY_UP_TO
        ? "day"
        : "week";
  const breakdownText = read(params, "by");
  const breakdown: Breakdown =
    breakdownText && (BREAKDOWNS as readonly string[]).includes(breakdownText) ? (breakdownText as Breakdown) : "channelGroup";

  return {
    preset,
    range,
    fromDay,
    toDay,
    days,
    previous: { fromDay: addDays(fromDay, -days), toDay: addDays(fromDay, -1) },
    interval,
    breakdown,
    notes,
  };
}

/** The query string of the page with these values (only what is not a default). */
export function overviewQuery(
  params: Pick<OverviewParams, "preset" | "fromDay" | "toDay" | "interval" | "breakdown" | "days">,
  change: Partial<{ preset: RangePreset; interval: Interval; breakdown: Breakdown }> = {},
): string {
  const preset = change.preset ?? params.preset;
  const query = new URLSearchParams();
  if (preset === "custom") {
    query.set("range", "custom");
    query.set("from", params.fromDay);
    query.set("to", params.toDay);
  } else if (preset !== DEFAULT_PRESET) query.set("range", preset);
  // A new range gets its own default interval; an interval chosen for this one stays.
  const interval = change.interval ?? (change.preset ? undefined : params.interval);
  const days = preset === "custom" ? params.days : PRESET_DAYS[preset];
  if (interval && interval !== (days <= DAILY_UP_TO ? "day" : "week")) query.set("interval", interval);
  const breakdown = change.breakdown ?? params.breakdown;
  if (breakdown !== "channelGroup") query.set("by", breakdown);
  return query.toString();
}

/** The lead list's URL for these days (inclusive) and filters: what a bar or a row stands for. */
export function leadListHref(slug: string, days: { fromDay: string; toDay: string }, filter: Partial<LeadFilter> = {}): string {
  const query = new URLSearchParams(filterParams({ ...EMPTY_FILTER, createdFrom: days.fromDay, createdTo: days.toDay, ...filter }));
  return `/t/${slug}/leads?${query}`;
}

/** The lead-list filter of one series of the leads-over-time chart; null: none names it (leads without a form…). */
export function seriesFilter(breakdown: Breakdown, key: string): Partial<LeadFilter> | null {
  if (!key) return null;
  switch (breakdown) {
    case "channelGroup":
      return { channelGroup: key as LeadFilter["channelGroup"] };
    case "source":
      return { sourceId: key };
    case "form":
      return { formId: key };
    case "connection":
      return { connectionId: key };
    case "apiKey":
      return { apiKeyId: key };
  }
}

/** The days of one bucket inside the range: a week that starts before the range or ends after it is cut to it. */
export function bucketDays(
  params: Pick<OverviewParams, "fromDay" | "toDay" | "interval">,
  bucket: string,
): { fromDay: string; toDay: string } {
  const end = params.interval === "week" ? addDays(bucket, 6) : bucket;
  return { fromDay: bucket < params.fromDay ? params.fromDay : bucket, toDay: end > params.toDay ? params.toDay : end };
}

export type OverviewData = {
  params: OverviewParams;
  overTime: Awaited<ReturnType<typeof leadsOverTime>>;
  channels: Awaited<ReturnType<typeof channelGroupCounts>>;
  campaigns: Awaited<ReturnType<typeof topCampaigns>>;
  funnel: Awaited<ReturnType<typeof statusFunnel>>;
  owners: Awaited<ReturnType<typeof owners>>;
  spam: Awaited<ReturnType<typeof spamPerDay>>;
};

/** Everything Leads → Overview shows for its query string. */
export async function loadOverview(teamId: string, search: Params, at: Date = now()): Promise<OverviewData> {
  const params = parseOverviewParams(search, at);
  const [overTime, channels, campaigns, funnel, ownerRows, spam] = await Promise.all([
    leadsOverTime(teamId, params.range, params.interval, params.breakdown),
    channelGroupCounts(teamId, params.range),
    topCampaigns(teamId, params.range, TOP_CAMPAIGNS),
    statusFunnel(teamId, params.range),
    owners(teamId, params.range),
    spamPerDay(teamId, params.range),
  ]);
  return { params, overTime, channels, campaigns, funnel, owners: ownerRows, spam };
}
