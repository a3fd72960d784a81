import { db, type Tx } from "../db/client";
import { env } from "../env";

// Every database access for the request log (per API key and per web form) lives here. The
// log is bounded by age (per team) and by count (per key and per form, so one noisy channel
// never pushes out another's history): pruneTeam runs every PRUNE_EVERY writes of a team in
// this process, so a flood of requests cannot grow the table without bound.

/** How the body was sent (the Content-Type's media type, reduced). */
export type BodyEncoding = "json" | "urlencoded" | "multipart" | "other" | "none";

/** What a request was sent to: an API key's create_lead, or a web form's endpoint. */
export type RequestTarget = { teamId: string; apiKeyId?: string | null; formId?: string | null };

export type RequestLogEntry = RequestTarget & {
  status: number;
  leadId?: string | null;
  error?: string | null;
  ip: string | null;
  encoding: BodyEncoding;
};

export type RequestLogRow = {
  id: number;
  createdAt: Date;
  status: number;
  leadId: string | null;
  error: string | null;
  /** A submission set aside in the spam quarantine: its reasons' codes, space-separated (docs/spam.md). */
  spam: string | null;
  ip: string | null;
  encoding: string;
};

const PRUNE_EVERY = 100;
const MAX_ERROR = 500;
/** A team's rows past the retention period are looked for at most this often per process. */
const RETENTION_EVERY_MS = 10 * 60 * 1000;

/** A key's or a form's log: the unit the row bound applies to. */
type Channel = { apiKeyId: string } | { formId: string };

/** Per team: writes since its last pruning, and the channels they went to. */
const pending = new Map<string, { writes: number; channels: Map<string, Channel> }>();
const lastRetention = new Map<string, number>();

function channelOf(target: RequestTarget): [string, Channel] | null {
  if (target.apiKeyId) return [`k:${target.apiKeyId}`, { apiKeyId: target.apiKeyId }];
  if (target.formId) return [`f:${target.formId}`, { formId: target.formId }];
  return null;
}

/** Writes one row; inside `tx` it commits with the lead it names. */
export async function recordRequest(entry: RequestLogEntry, tx?: Tx): Promise<void> {
  await (tx ?? db()).apiRequest.create({
    data: {
      teamId: entry.teamId,
      apiKeyId: entry.apiKeyId ?? null,
      formId: entry.formId ?? null,
      status: entry.status,
      leadId: entry.leadId ?? null,
      error: entry.error ? entry.error.slice(0, MAX_ERROR) : null,
      ip: entry.ip,
      encoding: entry.encoding,
    },
    select: { id: true },
  });
}

/**
 * Counts a write of the team and, every PRUNE_EVERY of them, prunes the channels they went to
 * (and, every RETENTION_EVERY_MS, the team's rows past the retention period). Call after the
 * row committed; it never throws (pruning is housekeeping, not the request). Pruning only the
 * channels written keeps its cost to index walks of those channels: the team-wide grouping it
 * replaced read every row of the team's log, every 100 creates (docs/performance.md).
 */
export function afterRequestRecorded(target: RequestTarget): void {
  const team = pending.get(target.teamId) ?? { writes: 0, channels: new Map<string, Channel>() };
  pending.set(target.teamId, team);
  const channel = channelOf(target);
  if (channel) team.channels.set(channel[0], channel[1]);
  if (++team.writes < PRUNE_EVERY) return;
  pending.delete(target.teamId);
  pruneTeam(target.teamId, new Date(), [...team.channels.values()]).catch(() => undefined);
}

/**
 * Deletes the team's rows older than the retention period, and of each of its keys and
 * forms (of `channels` only, when given) the rows beyond that channel's newest
 * REQUEST_LOG_MAX_ROWS. With `channels`, the retention part runs at most every
 * RETENTION_EVERY_MS per team.
 */
export async function pruneTeam(teamId: string, now = new Date(), channels?: Channel[]): Promise<number> {
  const { REQUEST_LOG_MAX_ROWS: maxRows, REQUEST_LOG_RETENTION_DAYS: days } = env();
  let count = 0;
  if (!channels || now.getTime() - (lastRetention.get(teamId) ?? -Infinity) >= RETENTION_EVERY_MS) {
    lastRetention.set(teamId, now.getTime());
    const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    count += (await db().apiRequest.deleteMany({ where: { teamId, createdAt: { lt: cutoff } } })).count;
  }
  for (const channel of channels ?? (await crowdedChannels(teamId, maxRows))) {
    const where = { teamId, ...channel };
    // The id of the newest row of the channel that falls outside the count; ids grow with time.
    const [boundary] = await db().apiRequest.findMany({ where, orderBy: { id: "desc" }, skip: maxRows, take: 1, select: { id: true } });
    if (boundary) count += (await db().apiRequest.deleteMany({ where: { ...where, id: { lte: boundary.id } } })).count;
  }
  return count;
}

/** The team's keys and forms with more than `maxRows` rows (reads every row of the team's log). */
async function crowdedChannels(teamId: string, maxRows: number): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (const by of ["apiKeyId", "formId"] as const) {
    const crowded = await db().apiRequest.groupBy({
      by: [by],
      where: { teamId, [by]: { not: null } },
      having: { id: { _count: { gt: maxRows } } },
    });
    for (const row of crowded) channels.push(by === "apiKeyId" ? { apiKeyId: row.apiKeyId! } : { formId: row.formId! });
  }
  return channels;
}

export const REQUEST_LOG_PAGE_SIZE = 50;

/** One page of a key's or a form's requests, newest first; `before` is the id cursor of the next page. */
export async function listRequests(options: {
  teamId: string;
  of: { apiKeyId: string } | { formId: string };
  before?: number;
  take?: number;
}): Promise<{ rows: RequestLogRow[]; olderCursor: number | null }> {
  const take = options.take ?? REQUEST_LOG_PAGE_SIZE;
  const rows = await db().apiRequest.findMany({
    where: { teamId: options.teamId, ...options.of, ...(options.before ? { id: { lt: options.before } } : {}) },
    orderBy: { id: "desc" },
    take: take + 1,
    select: { id: true, createdAt: true, status: true, leadId: true, error: true, spam: true, ip: true, encoding: true },
  });
  const page = rows.slice(0, take);
  return { rows: page, olderCursor: rows.length > take ? page[page.length - 1]!.id : null };
}

export type RequestActivity = { requests: number; failures: number };

/**
 * Requests and refusals since `since` per key (`by` "apiKeyId": the key list's "last 24 h")
 * or per form ("formId": the Web Forms tab).
 */
export async function requestActivity(teamId: string, since: Date, by: "apiKeyId" | "formId"): Promise<Map<string, RequestActivity>> {
  const where = { teamId, createdAt: { gte: since }, [by]: { not: null } };
  const [all, failed] = await Promise.all([
    db().apiRequest.groupBy({ by: [by], where, _count: { _all: true } }),
    db().apiRequest.groupBy({ by: [by], where: { ...where, status: { gte: 400 } }, _count: { _all: true } }),
  ]);
  const activity = new Map<string, RequestActivity>();
  for (const row of all) activity.set(row[by]!, { requests: row._count._all, failures: 0 });
  for (const row of failed) activity.get(row[by]!)!.failures = row._count._all;
  return activity;
}

/**
 * An erasure (lib/leads/erase-person.ts): deletes the team's rows that name these leads
 * (created, replayed) or whose error text quotes one of `texts` (the person's email in
 * "Invalid email address: …"). Inside the erasure's transaction.
 */
export async function eraseLeadRequests(
  tx: Tx,
  options: { teamId: string; leadIds: readonly string[]; texts: readonly string[] },
): Promise<number> {
  let erased = 0;
  for (let i = 0; i < options.leadIds.length; i += 500) {
    const { count } = await tx.apiRequest.deleteMany({
      where: { teamId: options.teamId, leadId: { in: options.leadIds.slice(i, i + 500) } },
    });
    erased += count;
  }
  for (const pattern of quotingPatterns(options.texts)) {
    erased += await tx.$executeRaw`
      DELETE FROM "ApiRequest" WHERE "teamId" = ${options.teamId} AND LOWER("error") LIKE ${pattern} ESCAPE '\\'`;
  }
  return erased;
}

/**
 * Case-insensitive on both databases (Prisma's `contains` is not on PostgreSQL), with the
 * texts' LIKE wildcards escaped.
 */
function quotingPatterns(texts: readonly string[]): string[] {
  return [...new Set(texts.map((t) => t.toLowerCase()))].map((text) => `%${text.replace(/[\\%_]/g, "\\$&")}%`);
}

/** How many of the team's rows quote one of `texts` in their error: what an erasure of a person with no lead removes here. */
export async function countRequestsQuoting(client: Tx, options: { teamId: string; texts: readonly string[] }): Promise<number> {
  const ids = new Set<number>();
  for (const pattern of quotingPatterns(options.texts)) {
    const rows = await client.$queryRaw<{ id: number | bigint }[]>`
      SELECT "id" FROM "ApiRequest" WHERE "teamId" = ${options.teamId} AND LOWER("error") LIKE ${pattern} ESCAPE '\\'`;
    for (const row of rows) ids.add(Number(row.id));
  }
  return ids.size;
}
