import { db, type Db } from "../db/client";
import { env } from "../env";
import { duplicateIds } from "./duplicate-store";
import { now } from "../time/clock";
import { createdRange, EMPTY_FILTER, narrows, returnedSince, type LeadFilter } from "./lead-filter";
import { formatLeadId, parseLeadId } from "./lead-id";
import { countLeadsUpTo, equalityFilters } from "./lead-store";
import { isLeadStatus, NEW_LEAD_STATUS, type LeadStatus } from "./lead-status";
import { submissionCounts } from "./lead-submission-store";
import { CONTACT_SELECT, searchKey } from "./new-lead";
import { parsePhone } from "./phone";

// The lead list: a filter's where clause, the keyset walk over seq (with the unindexed
// "possible duplicates only" filter), its pages, its counts and the ids it matches. The
// counts per status are lead-status-counts.ts'.

export const LEAD_PAGE_SIZE = 25;

/** The smallest string greater than every string that starts with `prefix` (code point order). */
function prefixUpperBound(prefix: string): string {
  const points = Array.from(prefix);
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return points.join("") + String.fromCodePoint(next);
  }
  return "\u{10ffff}";
}

// Prefix search on the lower-cased key columns: a code-point range beside the prefix
// match, so the (teamId, key) index serves it. Exact on SQLite (BINARY collation) and on
// PostgreSQL, where these columns have the "C" collation (migration
// 20261123300000_search_keys_c_collation); under a locale collation a range would drop
// real matches ("ada@example" sorts after "adaA", the bound of "ada@"). PostgreSQL's LIKE
// has a default escape character, so its wildcards are escaped (Prisma passes them
// through); on SQLite the range already keeps "%" and "_" literal.
function startsWith(prefix: string) {
  const like = env().DATABASE_PROVIDER === "postgres" ? prefix.replace(/[\\%_]/g, "\\$&") : prefix;
  return { startsWith: like, gte: prefix, lt: prefixUpperBound(prefix) };
}

export type LeadListItem = {
  id: string;
  name: string;
  organization: string;
  email: string | null;
  source: string;
  status: LeadStatus;
  /** null: unassigned. */
  owner: { name: string | null; email: string } | null;
  createdAt: Date;
  possibleDuplicate: boolean;
  /** How many submissions made or joined it (1: only its first). */
  submissions: number;
};

export type LeadPage = {
  leads: LeadListItem[];
  /** seq cursors: pass as `before` for the previous page, as `after` for the next one. */
  newerCursor: number | null;
  olderCursor: number | null;
};

/** The team a list query runs for: its id, and the country plain phone numbers are read in. */
export type LeadTeam = { id: string; defaultPhoneCountry: string | null };

type LeadWhere = NonNullable<Parameters<Db["lead"]["findMany"]>[0]>["where"];

/**
 * The where clause of a filter. The search is an OR of index-backed branches (a key
 * prefix, an E.164 number, a lead id), each carrying teamId and the other filters: SQLite
 * then answers it from the (teamId, key) indexes (MULTI-INDEX OR) instead of walking every
 * lead of the team by seq (docs/leads.md "Which filters use an index").
 */
export function leadWhere(team: LeadTeam, filter: LeadFilter): LeadWhere {
  const created = createdRange(filter);
  // "Returned": the window ends now (the app's clock), read each time the filter is queried.
  const returned = returnedSince(filter, now());
  const narrowing = {
    teamId: team.id,
    ...(equalityFilters(filter) as LeadWhere),
    ...(created.gte || created.lt ? { createdAt: created } : {}),
    ...(returned ? { returnedAt: { gte: returned } } : {}),
    ...consentWhere(team, filter),
  };
  const branches = searchBranches(team, filter.query);
  if (!branches) return narrowing;
  return { OR: branches.map((branch) => ({ ...narrowing, ...branch })) };
}

/** The consent filter: the lead's status row (LeadConsentStatus, kept by triggers), or none for "none". */
function consentWhere(team: LeadTeam, filter: LeadFilter): LeadWhere {
  if (!filter.consent) return {};
  return { consentStatus: filter.consent === "none" ? { is: null } : { is: { teamId: team.id, status: filter.consent } } };
}

/** The OR branches of a search, or null for no search. */
function searchBranches(team: LeadTeam, query: string): LeadWhere[] | null {
  const key = searchKey(query);
  if (!key) return null;
  const branches: LeadWhere[] = [
    { nameKey: startsWith(key) },
    { lastNameKey: startsWith(key) },
    { emailKey: startsWith(query.trim().toLowerCase()) },
    { organizationKey: startsWith(key) },
  ];
  // A lead id, in any case and padding ("crm-lead-42").
  const seq = parseLeadId(query);
  if (seq !== null && Number.isSafeInteger(seq)) branches.push({ id: formatLeadId(seq) });
  // A phone number in any form the intake reads, in the team's default country: the same
  // E.164 the intake stored ("+44 7911 123456" and "07911 123456" in GB).
  if ((query.match(/\d/g)?.length ?? 0) >= 5) {
    const phone = parsePhone(query, { defaultCountry: team.defaultPhoneCountry });
    if (phone) branches.push({ phone: phone.e164 }, { mobileNo: phone.e164 });
  }
  return branches;
}

/** Rows scanned at most for one page of "possible duplicates only" (a filter no index serves). */
const DUPLICATE_SCAN_LIMIT = 5_000;
const WALK_BATCH = 200;

const LIST_SELECT = {
  ...CONTACT_SELECT,
  organization: true,
  source: { select: { name: true } },
} as const;

/**
 * A page's status, owners and whether each lead returned: one query for the page's owners
 * (Prisma's relation load), none per row.
 */
const PAGE_SELECT = { status: true, owner: { select: { name: true, email: true } }, returnedAt: true } as const;

export type ListRow = { id: string; seq: number; emailKey: string | null; phone: string | null; mobileNo: string | null };

/**
 * Walks the filter's leads in `order` from the seq `from` (exclusive), keeping the possible
 * duplicates when the filter asks for them, until `want` rows are kept or, for that
 * unindexed filter, `scanLimit` rows were read. `more`: the walk stopped before the end;
 * `lastSeq`: the last seq read (the cursor to continue from).
 */
export async function walkLeads<Row extends ListRow>(
  team: LeadTeam,
  filter: LeadFilter,
  options: { order: "asc" | "desc"; from?: number; want: number; scanLimit?: number; select: Record<string, unknown> },
): Promise<{ rows: Row[]; more: boolean; lastSeq: number | null }> {
  const where = leadWhere(team, filter);
  const beyond = (from: number | undefined) => (from === undefined ? {} : { seq: options.order === "desc" ? { lt: from } : { gt: from } });
  const find = (from: number | undefined, take: number) =>
    db().lead.findMany({
      where: { ...where, ...beyond(from) },
      orderBy: { seq: options.order },
      take,
      select: { ...LIST_SELECT, ...options.select },
    }) as unknown as Promise<Row[]>;

  if (!filter.duplicatesOnly) {
    const rows = await find(options.from, options.want);
    return { rows, more: rows.length === options.want, lastSeq: rows.at(-1)?.seq ?? null };
  }
  const kept: Row[] = [];
  let from = options.from;
  let scanned = 0;
  const limit = options.scanLimit ?? DUPLICATE_SCAN_LIMIT;
  for (;;) {
    const batch = await find(from, WALK_BATCH);
    scanned += batch.length;
    const duplicates = await duplicateIds(team.id, batch);
    for (const row of batch) {
      if (!duplicates.has(row.id)) continue;
      kept.push(row);
      if (kept.length === options.want) return { rows: kept, more: true, lastSeq: row.seq };
    }
    from = batch.at(-1)?.seq ?? from;
    if (batch.length < WALK_BATCH) return { rows: kept, more: false, lastSeq: from ?? null };
    if (scanned >= limit) return { rows: kept, more: true, lastSeq: from ?? null };
  }
}

/**
 * One page of a team's leads matching `filter`, by keyset pagination on seq (the creation
 * order): newest first, or oldest first with sort "oldest". `after` continues in the sort
 * order, `before` goes back. The search matches the start of the full name, the last name,
 * the email or the organization, case-insensitively.
 */
export async function listLeads(options: {
  team: LeadTeam;
  filter?: LeadFilter;
  after?: number;
  before?: number;
  take?: number;
}): Promise<LeadPage> {
  const take = options.take ?? LEAD_PAGE_SIZE;
  const filter = options.filter ?? EMPTY_FILTER;
  const forward = filter.sort === "oldest" ? "asc" : "desc";
  const backwards = options.before !== undefined && options.after === undefined;
  const walk = await walkLeads<ListRow & Parameters<typeof toListItem>[0] & { returnedAt: Date | null }>(options.team, filter, {
    order: backwards ? (forward === "asc" ? "desc" : "asc") : forward,
    from: backwards ? options.before : options.after,
    want: take + 1,
    select: PAGE_SELECT,
  });
  const full = walk.rows.length > take;
  // More rows lie beyond this page: a full walk, or a duplicates-only walk that hit its
  // scan limit (it then continues from the last row it read).
  const more = full || walk.more;
  const page = walk.rows.slice(0, take);
  const edge = full ? page.at(-1)!.seq : walk.lastSeq;
  if (backwards) page.reverse();
  // Only a lead that returned (returnedAt set) has more than its first submission: one
  // grouped read of the (leadId, createdAt) index for those of the page, none when no row did.
  const returned = page.filter((row) => row.returnedAt !== null).map((row) => row.id);
  const [duplicates, submissions] = await Promise.all([
    filter.duplicatesOnly ? new Set(page.map((r) => r.id)) : duplicateIds(options.team.id, page),
    returned.length ? submissionCounts(returned) : new Map<string, number>(),
  ]);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    leads: page.map((row) => toListItem(row, duplicates.has(row.id), submissions.get(row.id) ?? 1)),
    newerCursor: backwards ? (more ? edge : null) : options.after !== undefined ? (first?.seq ?? options.after) : null,
    olderCursor: backwards ? (last?.seq ?? options.before ?? null) : more ? edge : null,
  };
}

function toListItem(
  row: {
    id: string;
    firstName: string;
    lastName: string | null;
    organization: string;
    email: string | null;
    createdAt: Date;
    source: { name: string };
    status: string;
    owner: { name: string | null; email: string } | null;
  },
  possibleDuplicate: boolean,
  submissions: number,
): LeadListItem {
  return {
    id: row.id,
    name: [row.firstName, row.lastName].filter(Boolean).join(" "),
    organization: row.organization,
    email: row.email,
    source: row.source.name,
    status: isLeadStatus(row.status) ? row.status : NEW_LEAD_STATUS,
    owner: row.owner,
    createdAt: row.createdAt,
    possibleDuplicate,
    submissions,
  };
}

/** "Possible duplicates only" is counted among this many leads at most (then shown as "N+"). */
export const DUPLICATE_COUNT_SCAN_LIMIT = 10_000;

/** True when only equality filters narrow (no search, date range, "returned", consent or duplicates): their counts are SQL COUNTs over an index. */
export function onlyEqualityFilters(filter: LeadFilter): boolean {
  const created = createdRange(filter);
  return !filter.duplicatesOnly && !filter.returned && !filter.consent && !searchKey(filter.query) && !created.gte && !created.lt;
}

/**
 * How many leads match the filter, counted no further than `cap`. Without a filter this is
 * countLeadsUpTo; "possible duplicates only" counts what a bounded walk finds; any other
 * filter reads the matches' seq, no more than cap + 1.
 */
export async function countMatchingLeads(team: LeadTeam, filter: LeadFilter, cap: number): Promise<{ count: number; capped: boolean }> {
  if (!narrows(filter)) return countLeadsUpTo(team.id, cap);
  if (onlyEqualityFilters(filter)) {
    // Equality filters only: COUNT over a LIMIT on their (teamId, column, seq) index, no
    // row leaves the database (≈ 1.5 ms at 10,000 matches on SQLite, against ≈ 45 ms to
    // fetch their seq through Prisma and ≈ 150 ms on PostgreSQL to fetch whole list rows).
    return countLeadsUpTo(team.id, cap, equalityFilters(filter));
  }
  if (!filter.duplicatesOnly) {
    // A search, a date range, "returned" or consent: only the seq of each match, in the filter's index order so
    // the LIMIT stops the walk (Prisma's count({ take }) orders its subquery by id, which
    // sorts every match first).
    const rows = await db().lead.findMany({
      where: leadWhere(team, filter),
      orderBy: { seq: "desc" },
      take: cap + 1,
      select: { seq: true },
    });
    return { count: Math.min(rows.length, cap), capped: rows.length > cap };
  }
  const walk = await walkLeads(
    team,
    { ...filter, sort: "newest" },
    { order: "desc", want: cap + 1, scanLimit: DUPLICATE_COUNT_SCAN_LIMIT, select: {} },
  );
  const count = Math.min(walk.rows.length, cap);
  return { count, capped: walk.rows.length > cap || (walk.more && walk.rows.length <= cap) };
}

/** The ids of the leads matching the filter, oldest first, or null when more than `limit` match. */
export async function matchingLeadIds(team: LeadTeam, filter: LeadFilter, limit: number): Promise<string[] | null> {
  const ids: string[] = [];
  let from: number | undefined;
  for (;;) {
    const walk = await walkLeads(
      team,
      { ...filter, sort: "oldest" },
      { order: "asc", from, want: 1_000, scanLimit: 1_000_000, select: {} },
    );
    ids.push(...walk.rows.map((r) => r.id));
    if (ids.length > limit) return null;
    if (!walk.more) return ids;
    from = walk.lastSeq ?? undefined;
  }
}
