import { db } from "../db/client";
import { newestAuditEventId } from "../audit/audit-log";
import { listTeamSlugs } from "../teams/team-store";
import { countLeadsUpTo } from "./lead-store";
import type { CappedCount } from "./lead-status-counts";

// Speed to lead (docs/routing.md "Speed to lead"): how long the team's leads waited for their
// first contact, over the leads created in the last 7 and 30 days, for the team and per owner,
// and how many leads are New right now. Shown on Leads and as gauges on /api/metrics.
//
// Definitions:
// - A window of d days at `now` holds the leads with now − d × 24 h ≤ createdAt ≤ now.
// - A lead counts once it was contacted (firstContactedAt set, lib/leads/lead-ownership.ts);
//   its time to first contact is firstContactedAt − createdAt, 0 when a clock step made it
//   negative. Per owner: the lead's owner now (null: unassigned), not who contacted it.
// - Percentiles are nearest-rank: with the n times sorted ascending t1 ≤ … ≤ tn, the p-th
//   percentile is t_k with k = ⌈p × n / 100⌉, the smallest time at least p % of the leads
//   took no longer than. The median is the 50th (t2 of four: the lower middle one).
//
// What it reads, so that it stays cheap at a million leads: the 30-day window's newest
// SAMPLE_LIMIT leads (contacted or not) bound the read; of them, the contacted leads' owner
// and two timestamps (the (teamId, createdAt) index, then those rows). Beyond the limit the
// figures are those of the newest leads ("based on the newest 10,000 leads"). The New count
// is a capped COUNT on (teamId, status, seq), from the index alone.

export const SPEED_WINDOWS = [
  { name: "7d", days: 7 },
  { name: "30d", days: 30 },
] as const;
export type SpeedWindow = (typeof SPEED_WINDOWS)[number]["name"];

/** At most this many of a window's newest leads are read (≈ 35 ms on SQLite at 10,000; 100,000: ≈ 600 ms). */
export const SAMPLE_LIMIT = 10_000;
/** "New right now" stops here ("10,000+"), like the list's status counts. */
export const NEW_COUNT_CAP = 10_000;
/** The figures of a team are read again after this long even when its audit log is still. */
export const FRESH_FOR_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Times in milliseconds; null when no lead was contacted. */
export type ContactFigures = { contacted: number; medianMs: number | null; p90Ms: number | null };

export type SpeedToLead = {
  /** `sampled`: the window held more than SAMPLE_LIMIT leads; the figures are its newest ones'. */
  windows: Record<SpeedWindow, ContactFigures & { sampled: boolean }>;
  /** Every owner (null: unassigned) with a contacted lead in the 30-day window, most contacted first. */
  owners: { ownerId: string | null; windows: Record<SpeedWindow, ContactFigures> }[];
  newNow: CappedCount;
};

export type ContactedLead = { ownerId: string | null; createdAt: Date; firstContactedAt: Date };

/** The nearest-rank `percent`-th percentile (0 < percent ≤ 100) of times sorted ascending; null when there are none. */
export function nearestRank(sorted: readonly number[], percent: number): number | null {
  if (sorted.length === 0) return null;
  // n × percent is a whole number: the division is exact whenever the rank is whole.
  const rank = Math.max(1, Math.ceil((sorted.length * percent) / 100));
  return sorted[rank - 1]!;
}

function figures(times: number[]): ContactFigures {
  const sorted = times.sort((a, b) => a - b);
  return { contacted: sorted.length, medianMs: nearestRank(sorted, 50), p90Ms: nearestRank(sorted, 90) };
}

export const windowStart = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

export type ContactSummary = { windows: Record<SpeedWindow, ContactFigures>; owners: SpeedToLead["owners"] };

/** The figures of `leads` (contacted leads of one team, created at any time) at `now`. */
export function summarize(leads: readonly ContactedLead[], now: Date): ContactSummary {
  const team = new Map<SpeedWindow, number[]>(SPEED_WINDOWS.map((w) => [w.name, []]));
  const owners = new Map<string | null, Map<SpeedWindow, number[]>>();
  for (const lead of leads) {
    const created = lead.createdAt.getTime();
    if (created > now.getTime()) continue;
    const time = Math.max(0, lead.firstContactedAt.getTime() - created);
    for (const window of SPEED_WINDOWS) {
      if (created < windowStart(now, window.days).getTime()) continue;
      team.get(window.name)!.push(time);
      let own = owners.get(lead.ownerId);
      if (!own) owners.set(lead.ownerId, (own = new Map(SPEED_WINDOWS.map((w) => [w.name, []]))));
      own.get(window.name)!.push(time);
    }
  }
  const byWindow = (times: Map<SpeedWindow, number[]>) =>
    Object.fromEntries(SPEED_WINDOWS.map((w) => [w.name, figures(times.get(w.name)!)])) as Record<SpeedWindow, ContactFigures>;
  return {
    windows: byWindow(team),
    owners: [...owners]
      .map(([ownerId, times]) => ({ ownerId, windows: byWindow(times) }))
      .sort((a, b) => b.windows["30d"].contacted - a.windows["30d"].contacted || (a.ownerId ?? "~").localeCompare(b.ownerId ?? "~")),
  };
}

/** The team's speed to lead at `now`, read from the database (no cache: speedToLead caches it). */
export async function readSpeedToLead(teamId: string, now: Date, limit = SAMPLE_LIMIT): Promise<SpeedToLead> {
  const widest = Math.max(...SPEED_WINDOWS.map((w) => w.days));
  const createdAt = { gte: windowStart(now, widest), lte: now };
  // The newest lead beyond the limit (OFFSET over the (teamId, createdAt) index alone): the
  // read stops after it. Leads created in the same millisecond as it are left out with it.
  const [beyond] = await db().lead.findMany({
    where: { teamId, createdAt },
    orderBy: { createdAt: "desc" },
    skip: limit,
    take: 1,
    select: { createdAt: true },
  });
  const [rows, newNow] = await Promise.all([
    db().lead.findMany({
      where: { teamId, createdAt: beyond ? { gt: beyond.createdAt, lte: now } : createdAt, firstContactedAt: { not: null } },
      select: { ownerId: true, createdAt: true, firstContactedAt: true },
    }),
    countLeadsUpTo(teamId, NEW_COUNT_CAP, { status: "new" }),
  ]);
  const contacted = rows.filter((row): row is ContactedLead => row.firstContactedAt !== null);
  const { windows, owners } = summarize(contacted, now);
  const sampled = (days: number) => beyond !== undefined && beyond.createdAt >= windowStart(now, days);
  return {
    windows: Object.fromEntries(
      SPEED_WINDOWS.map((w) => [w.name, { ...windows[w.name], sampled: sampled(w.days) }]),
    ) as SpeedToLead["windows"],
    owners,
    newNow,
  };
}

type Cached = { marker: string | null; at: number; value: SpeedToLead };
// Pages and route handlers are bundled apart: one cache per process, on globalThis.
const holder = globalThis as unknown as { leadIntakeSpeedToLead?: Map<string, Cached> };
const MAX_CACHED_TEAMS = 1_000;

/**
 * readSpeedToLead, kept per team until its audit log has a newer event or FRESH_FOR_MS have
 * passed (the New count is read every time). Every status change and assignment is audited
 * in its own transaction, so a contact shows at the next read; what is not audited (a
 * deleted user's leads unassigned, the windows moving on) shows within FRESH_FOR_MS. The Leads
 * page then costs two indexed reads (≈ 1.5 ms) instead of the window's rows (≈ 35 ms at 10,000).
 */
export async function speedToLead(teamId: string, now: Date): Promise<SpeedToLead> {
  // Read before the figures: a change committed in between makes the next call read again.
  const marker = await newestAuditEventId(teamId);
  const cache = (holder.leadIntakeSpeedToLead ??= new Map());
  const hit = cache.get(teamId);
  const age = hit ? now.getTime() - hit.at : -1;
  if (hit && hit.marker === marker && age >= 0 && age < FRESH_FOR_MS) {
    return { ...hit.value, newNow: await countLeadsUpTo(teamId, NEW_COUNT_CAP, { status: "new" }) };
  }
  const value = await readSpeedToLead(teamId, now);
  cache.delete(teamId);
  cache.set(teamId, { marker, at: now.getTime(), value });
  if (cache.size > MAX_CACHED_TEAMS) cache.delete(cache.keys().next().value!);
  return value;
}

/** speedToLead of every team, by slug (the /api/metrics gauges), one team after the other. */
export async function speedToLeadOfEveryTeam(now: Date): Promise<{ slug: string; figures: SpeedToLead }[]> {
  const teams = await listTeamSlugs();
  const result: { slug: string; figures: SpeedToLead }[] = [];
  for (const team of teams) result.push({ slug: team.slug, figures: await speedToLead(team.id, now) });
  return result;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A time in words, rounded down: "under 1 min", "14 min", "2 h", "2 h 5 min", "1 day 4 h", "3 days". */
export function durationWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "under 1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${plural(days, "day")} ${hours % 24} h` : plural(days, "day");
}
