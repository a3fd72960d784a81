import { join, raw, sqltag as sql } from "@prisma/client/runtime/client";
import { db, type Db, type Tx } from "../db/client";
import { env } from "../env";
import { rawJson } from "../db/raw-json";
import { formatLeadId, parseLeadId } from "./lead-id";
import { parsePhone } from "./phone";
import { createdRange, EMPTY_FILTER, narrows, type LeadFilter } from "./lead-filter";
import { searchKey, searchKeys, type NewLead } from "./new-lead";

// The lead queries: lookups, the list and its counts, duplicates, the export, merges, the
// fills of an import and retention. A new lead is written by lib/leads/lead-writer.ts.

/** Values per IN list on SQLite (bound parameters; PostgreSQL takes the list as one array). */
const IN_CHUNK = 500;

type ContactMatch = { id: string; seq: number; emailKey: string | null; phone: string | null; mobileNo: string | null };

/**
 * The team's leads with one of these emails (lower-cased) or E.164 numbers (as phone or
 * mobile), oldest first: an import's duplicate check of one batch. One indexed query per
 * field (and, on SQLite, per chunk of values); raw, because through Prisma's query
 * compiler three 500-value lists cost more than the batch's whole insert.
 */
export async function findLeadsByContact(teamId: string, contacts: { emails: string[]; numbers: string[] }): Promise<ContactMatch[]> {
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const byColumn = (column: "emailKey" | "phone" | "mobileNo", values: string[]): Promise<ContactMatch[]>[] => {
    if (!values.length) return [];
    const select = `SELECT "id", "seq", "emailKey", "phone", "mobileNo" FROM "Lead" WHERE "teamId" = `;
    if (postgres) return [db().$queryRawUnsafe<ContactMatch[]>(`${select}$1 AND "${column}" = ANY($2::text[])`, teamId, values)];
    const chunks: Promise<ContactMatch[]>[] = [];
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const chunk = values.slice(i, i + IN_CHUNK);
      chunks.push(
        db().$queryRawUnsafe<ContactMatch[]>(`${select}? AND "${column}" IN (${chunk.map(() => "?").join(", ")})`, teamId, ...chunk),
      );
    }
    return chunks;
  };
  const queries = [
    ...byColumn("emailKey", contacts.emails),
    ...byColumn("phone", contacts.numbers),
    ...byColumn("mobileNo", contacts.numbers),
  ];
  const found = new Map<string, ContactMatch>();
  for (const rows of await Promise.all(queries)) for (const row of rows) found.set(row.id, { ...row, seq: Number(row.seq) });
  return [...found.values()].sort((a, b) => a.seq - b.seq);
}

/** The ids of the team's leads an import created (undo), with whether another lead was merged into each. */
export async function importedLeads(
  teamId: string,
  importId: string,
  afterSeq: number,
  take: number,
): Promise<{ id: string; seq: number; merged: boolean }[]> {
  const rows = await db().lead.findMany({
    where: { teamId, importId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
    select: { id: true, seq: true, mergedLeadIds: true },
  });
  return rows.map((row) => ({ id: row.id, seq: row.seq, merged: Array.isArray(row.mergedLeadIds) && row.mergedLeadIds.length > 0 }));
}

export function countLeads(teamId?: string): Promise<number> {
  return db().lead.count(teamId ? { where: { teamId } } : undefined);
}

/**
 * A team's lead count for display, counted no further than `cap` (COUNT over a LIMIT):
 * an exact count walks every index entry of the team, ≈ 250 ms at a million leads.
 * Raw: Prisma's `count({ take })` orders the subquery by id, which sorts every lead of
 * the team first (≈ 750 ms at a million); without an order the LIMIT stops the index walk.
 */
export async function countLeadsUpTo(
  teamId: string,
  cap: number,
  equal: Partial<Record<EqualityFilterColumn, string>> = {},
): Promise<{ count: number; capped: boolean }> {
  // Column names from a fixed list only; values are parameters.
  const conditions = [sql`"teamId" = ${teamId}`];
  for (const column of EQUALITY_FILTER_COLUMNS) {
    const value = equal[column];
    if (value !== undefined) conditions.push(sql`${raw(`"${column}"`)} = ${value}`);
  }
  const [row] = await db().$queryRaw<{ count: number | bigint }[]>`
    SELECT COUNT(*) AS "count" FROM (SELECT 1 FROM "Lead" WHERE ${join(conditions, " AND ")} LIMIT ${cap + 1}) AS "capped"`;
  const count = Number(row?.count ?? 0);
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

/** The filters that are one column's equality: the match count is then a COUNT over a LIMIT on their index. */
const EQUALITY_FILTER_COLUMNS = ["sourceId", "utmSource", "utmCampaign", "apiKeyId", "formId", "importId"] as const;
type EqualityFilterColumn = (typeof EQUALITY_FILTER_COLUMNS)[number];

export function findLead(options: { id: string; teamId: string }) {
  return db().lead.findFirst({
    where: { id: options.id, teamId: options.teamId },
    include: { source: { select: { name: true } } },
  });
}

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
  createdAt: Date;
  possibleDuplicate: boolean;
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
function leadWhere(team: LeadTeam, filter: LeadFilter): LeadWhere {
  const created = createdRange(filter);
  const narrowing = {
    teamId: team.id,
    ...(filter.sourceId ? { sourceId: filter.sourceId } : {}),
    ...(filter.utmSource ? { utmSource: filter.utmSource } : {}),
    ...(filter.utmCampaign ? { utmCampaign: filter.utmCampaign } : {}),
    ...(filter.apiKeyId ? { apiKeyId: filter.apiKeyId } : {}),
    ...(filter.formId ? { formId: filter.formId } : {}),
    ...(filter.importId ? { importId: filter.importId } : {}),
    ...(created.gte || created.lt ? { createdAt: created } : {}),
  };
  const branches = searchBranches(team, filter.query);
  if (!branches) return narrowing;
  return { OR: branches.map((branch) => ({ ...narrowing, ...branch })) };
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
  id: true,
  seq: true,
  firstName: true,
  lastName: true,
  email: true,
  emailKey: true,
  phone: true,
  mobileNo: true,
  organization: true,
  createdAt: true,
  source: { select: { name: true } },
} as const;

type ListRow = { id: string; seq: number; emailKey: string | null; phone: string | null; mobileNo: string | null };

/**
 * Walks the filter's leads in `order` from the seq `from` (exclusive), keeping the possible
 * duplicates when the filter asks for them, until `want` rows are kept or, for that
 * unindexed filter, `scanLimit` rows were read. `more`: the walk stopped before the end;
 * `lastSeq`: the last seq read (the cursor to continue from).
 */
async function walkLeads<Row extends ListRow>(
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
  const walk = await walkLeads<ListRow & Parameters<typeof toListItem>[0]>(options.team, filter, {
    order: backwards ? (forward === "asc" ? "desc" : "asc") : forward,
    from: backwards ? options.before : options.after,
    want: take + 1,
    select: {},
  });
  const full = walk.rows.length > take;
  // More rows lie beyond this page: a full walk, or a duplicates-only walk that hit its
  // scan limit (it then continues from the last row it read).
  const more = full || walk.more;
  const page = walk.rows.slice(0, take);
  const edge = full ? page.at(-1)!.seq : walk.lastSeq;
  if (backwards) page.reverse();
  const duplicates = filter.duplicatesOnly ? new Set(page.map((r) => r.id)) : await duplicateIds(options.team.id, page);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    leads: page.map((row) => toListItem(row, duplicates.has(row.id))),
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
  },
  possibleDuplicate: boolean,
): LeadListItem {
  return {
    id: row.id,
    name: [row.firstName, row.lastName].filter(Boolean).join(" "),
    organization: row.organization,
    email: row.email,
    source: row.source.name,
    createdAt: row.createdAt,
    possibleDuplicate,
  };
}

/** "Possible duplicates only" is counted among this many leads at most (then shown as "N+"). */
const DUPLICATE_COUNT_SCAN_LIMIT = 10_000;

/**
 * How many leads match the filter, counted no further than `cap`. Without a filter this is
 * countLeadsUpTo; "possible duplicates only" counts what a bounded walk finds; any other
 * filter reads the matches' seq, no more than cap + 1.
 */
export async function countMatchingLeads(team: LeadTeam, filter: LeadFilter, cap: number): Promise<{ count: number; capped: boolean }> {
  if (!narrows(filter)) return countLeadsUpTo(team.id, cap);
  const created = createdRange(filter);
  if (!filter.duplicatesOnly && !searchKey(filter.query) && !created.gte && !created.lt) {
    // Equality filters only: COUNT over a LIMIT on their (teamId, column, seq) index, no
    // row leaves the database (≈ 1.5 ms at 10,000 matches on SQLite, against ≈ 45 ms to
    // fetch their seq through Prisma and ≈ 150 ms on PostgreSQL to fetch whole list rows).
    const equal = Object.fromEntries(EQUALITY_FILTER_COLUMNS.flatMap((column) => (filter[column] ? [[column, filter[column]]] : [])));
    return countLeadsUpTo(team.id, cap, equal);
  }
  if (!filter.duplicatesOnly) {
    // A search or a date range: only the seq of each match, in the filter's index order so
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

/**
 * Deletes these leads of the team in one transaction and returns the ids that existed
 * (another team's id, or a lead already gone, deletes nothing). `beforeCommit` runs in the
 * transaction with those ids (the audit event, the erasure of what else names them).
 */
export async function deleteLeads(
  teamId: string,
  ids: readonly string[],
  beforeCommit?: (tx: Tx, deleted: string[]) => Promise<void>,
): Promise<string[]> {
  if (!ids.length) return [];
  return db().$transaction(
    async (tx) => {
      const deleted: string[] = [];
      // Chunks keep each statement under the databases' bound-parameter limits.
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = [...new Set(ids.slice(i, i + 500))];
        const found = await tx.lead.findMany({ where: { teamId, id: { in: chunk } }, select: { id: true } });
        if (!found.length) continue;
        await tx.lead.deleteMany({ where: { teamId, id: { in: found.map((f) => f.id) } } });
        deleted.push(...found.map((f) => f.id));
      }
      await beforeCommit?.(tx, deleted);
      return deleted;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

export type PersonLead = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  mobileNo: string | null;
  createdAt: Date;
  /** How it matched: the email or number asked for, or a possible duplicate of such a lead. */
  reason: "email" | "phone" | "duplicate";
};

/** At most this many leads are listed for one person (a person with more is a data problem). */
const PERSON_LEADS_LIMIT = 500;

/**
 * The team's leads with this email (lower-cased) or E.164 number (as phone or mobile), and
 * the possible duplicates of those (the same email or number as any of them), newest first.
 */
export async function findPersonLeads(teamId: string, person: { email: string | null; phone: string | null }): Promise<PersonLead[]> {
  const select = {
    id: true,
    seq: true,
    firstName: true,
    lastName: true,
    email: true,
    emailKey: true,
    phone: true,
    mobileNo: true,
    createdAt: true,
  } as const;
  const byContact = (emails: string[], numbers: string[]) => [
    ...emails.map((emailKey) => ({ teamId, emailKey })),
    ...(numbers.length
      ? [
          { teamId, phone: { in: numbers } },
          { teamId, mobileNo: { in: numbers } },
        ]
      : []),
  ];
  const asked = byContact(person.email ? [person.email] : [], person.phone ? [person.phone] : []);
  if (!asked.length) return [];
  const direct = await db().lead.findMany({ where: { OR: asked }, orderBy: { seq: "desc" }, take: PERSON_LEADS_LIMIT, select });
  const emails = [...new Set(direct.flatMap((l) => (l.emailKey && l.emailKey !== person.email ? [l.emailKey] : [])))];
  const numbers = [...new Set(direct.flatMap((l) => [l.phone, l.mobileNo]).filter((n): n is string => !!n && n !== person.phone))];
  const related = byContact(emails, numbers);
  const duplicates = related.length
    ? await db().lead.findMany({
        where: { id: { notIn: direct.map((l) => l.id) }, OR: related },
        orderBy: { seq: "desc" },
        take: PERSON_LEADS_LIMIT,
        select,
      })
    : [];
  const reasonOf = (lead: (typeof direct)[number]): PersonLead["reason"] =>
    person.email && lead.emailKey === person.email ? "email" : "phone";
  return [
    ...direct.map((lead) => ({ lead, reason: reasonOf(lead) })),
    ...duplicates.map((lead) => ({ lead, reason: "duplicate" as const })),
  ]
    .sort((a, b) => b.lead.seq - a.lead.seq)
    .map(({ lead, reason }) => ({
      id: lead.id,
      name: [lead.firstName, lead.lastName].filter(Boolean).join(" "),
      email: lead.email,
      phone: lead.phone,
      mobileNo: lead.mobileNo,
      createdAt: lead.createdAt,
      reason,
    }));
}

/** The organization details and the UTM fields, selected by the export and the merge. */
const COMPANY_SELECT = {
  jobTitle: true,
  website: true,
  territory: true,
  industry: true,
  annualRevenue: true,
  noOfEmployees: true,
} as const;
const UTM_SELECT = { utmSource: true, utmMedium: true, utmCampaign: true, utmTerm: true, utmContent: true } as const;

const EXPORT_SELECT = {
  lastName: true,
  phone: true,
  mobileNo: true,
  skippedPhone: true,
  skippedMobileNo: true,
  skippedWebsite: true,
  ...COMPANY_SELECT,
  currency: true,
  ...UTM_SELECT,
  extraFields: true,
  apiKeyId: true,
} as const;

export type ExportLead = ListRow &
  Omit<NewLead, "teamId" | "sourceId" | "extraFields" | "phoneCountryCode" | "phoneNational" | "mobileCountryCode" | "mobileNational"> & {
    createdAt: Date;
    source: { name: string };
    extraFields: unknown;
  };

/**
 * Every lead matching the filter, in the filter's order, `batchSize` at a time by keyset
 * pagination on seq: one batch in memory at a time, whatever the team's size.
 */
export async function* exportLeadBatches(team: LeadTeam, filter: LeadFilter, batchSize = 500): AsyncGenerator<ExportLead[]> {
  const order = filter.sort === "oldest" ? "asc" : "desc";
  let from: number | undefined;
  for (;;) {
    const walk = await walkLeads<ExportLead>(team, filter, { order, from, want: batchSize, select: EXPORT_SELECT });
    if (walk.rows.length) yield walk.rows;
    if (!walk.more || walk.lastSeq === null) return;
    from = walk.lastSeq;
  }
}

type DuplicateProbe = { id: string; emailKey: string | null; phone: string | null; mobileNo: string | null };

/** Which of these leads share an email or an E.164 number with another lead of the team. */
async function duplicateIds(teamId: string, leads: DuplicateProbe[]): Promise<Set<string>> {
  const emails = [...new Set(leads.flatMap((l) => (l.emailKey ? [l.emailKey] : [])))];
  const numbers = [...new Set(leads.flatMap((l) => [l.phone, l.mobileNo].filter((n): n is string => !!n)))];
  const [byEmail, byPhone, byMobile] = await Promise.all([
    emails.length ? db().lead.groupBy({ by: ["emailKey"], where: { teamId, emailKey: { in: emails } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["phone"], where: { teamId, phone: { in: numbers } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["mobileNo"], where: { teamId, mobileNo: { in: numbers } }, _count: { _all: true } }) : [],
  ]);
  const emailCount = new Map(byEmail.map((g) => [g.emailKey, g._count._all]));
  const numberCount = new Map<string, number>();
  for (const g of byPhone) if (g.phone) numberCount.set(g.phone, (numberCount.get(g.phone) ?? 0) + g._count._all);
  for (const g of byMobile) if (g.mobileNo) numberCount.set(g.mobileNo, (numberCount.get(g.mobileNo) ?? 0) + g._count._all);

  const found = new Set<string>();
  for (const lead of leads) {
    if (lead.emailKey && (emailCount.get(lead.emailKey) ?? 0) > 1) found.add(lead.id);
    for (const number of new Set([lead.phone, lead.mobileNo])) {
      if (!number) continue;
      // The lead's own phone and mobile may hold the same number: count it once per field it fills.
      const own = (lead.phone === number ? 1 : 0) + (lead.mobileNo === number ? 1 : 0);
      if ((numberCount.get(number) ?? 0) > own) found.add(lead.id);
    }
  }
  return found;
}

export type DuplicateLead = { id: string; name: string; email: string | null; createdAt: Date; reasons: ("email" | "phone")[] };

/** Other leads of the same team with the same email or the same E.164 phone number. */
export async function findPossibleDuplicates(lead: DuplicateProbe & { teamId: string }): Promise<DuplicateLead[]> {
  const numbers = [lead.phone, lead.mobileNo].filter((n): n is string => !!n);
  // teamId inside each branch, as in listLeads: a MULTI-INDEX OR plan, not a walk of the team's leads.
  const teamId = lead.teamId;
  const match = [
    ...(lead.emailKey ? [{ teamId, emailKey: lead.emailKey }] : []),
    ...(numbers.length
      ? [
          { teamId, phone: { in: numbers } },
          { teamId, mobileNo: { in: numbers } },
        ]
      : []),
  ];
  if (!match.length) return [];
  const rows = await db().lead.findMany({
    // No outer teamId: with it SQLite prefers walking (teamId, seq) to skip the sort.
    where: { id: { not: lead.id }, OR: match },
    orderBy: { seq: "desc" },
    take: 50,
    select: { id: true, firstName: true, lastName: true, email: true, emailKey: true, phone: true, mobileNo: true, createdAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    name: [row.firstName, row.lastName].filter(Boolean).join(" "),
    email: row.email,
    createdAt: row.createdAt,
    reasons: [
      ...(lead.emailKey && row.emailKey === lead.emailKey ? (["email"] as const) : []),
      ...(numbers.some((n) => n === row.phone || n === row.mobileNo) ? (["phone"] as const) : []),
    ],
  }));
}

/**
 * Recomputes the search keys of up to `take` leads after seq `afterSeq` (seq order) and
 * writes those that changed. Returns the last seq read, or null at the end.
 */
export async function refoldSearchKeys(afterSeq: number, take = 1_000): Promise<{ lastSeq: number | null; updated: number }> {
  const rows = await db().lead.findMany({
    where: { seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
    select: {
      id: true,
      seq: true,
      firstName: true,
      lastName: true,
      email: true,
      organization: true,
      emailKey: true,
      nameKey: true,
      lastNameKey: true,
      organizationKey: true,
    },
  });
  let updated = 0;
  for (const row of rows) {
    const keys = searchKeys(row);
    if (
      keys.emailKey === row.emailKey &&
      keys.nameKey === row.nameKey &&
      keys.lastNameKey === row.lastNameKey &&
      keys.organizationKey === row.organizationKey
    )
      continue;
    await db().lead.update({ where: { id: row.id }, data: keys, select: { id: true } });
    updated++;
  }
  return { lastSeq: rows.length === take ? rows.at(-1)!.seq : null, updated };
}

/** Thrown inside a merge's transaction when a lead it names is gone or in another team. */
export class MergeConflictError extends Error {
  override name = "MergeConflictError";
}

export type MergeRow = Omit<
  NewLead,
  "teamId" | "apiKeyId" | "formId" | "sourceId" | "currency" | "skippedPhone" | "skippedMobileNo" | "skippedWebsite" | "extraFields"
> & {
  id: string;
  seq: number;
  extraFields: unknown;
  mergedLeadIds: unknown;
  createdAt: Date;
};

const MERGE_SELECT = {
  id: true,
  seq: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  phoneCountryCode: true,
  phoneNational: true,
  mobileNo: true,
  mobileCountryCode: true,
  mobileNational: true,
  organization: true,
  ...COMPANY_SELECT,
  ...UTM_SELECT,
  extraFields: true,
  mergedLeadIds: true,
  createdAt: true,
} as const;

/** The fields an import's "fill empty fields" reads and writes (lib/imports/): a merge's, less its bookkeeping. */
const { seq: _seq, mergedLeadIds: _mergedLeadIds, createdAt: _createdAt, ...FILLABLE_SELECT } = MERGE_SELECT;

export type FillableLead = { id: string } & Pick<NewLead, Exclude<keyof typeof FILLABLE_SELECT, "id" | "extraFields">> & {
    extraFields: unknown;
  };

/** These leads of the team as `tx` sees them now (an import's update of duplicates). */
export function findFillableLeads(tx: Tx, teamId: string, ids: readonly string[]): Promise<FillableLead[]> {
  return tx.lead.findMany({ where: { teamId, id: { in: [...ids] } }, select: FILLABLE_SELECT }) as Promise<FillableLead[]>;
}

/** Writes an import's filled fields of one lead inside `tx`, with its search keys. */
export async function updateFilledLead(tx: Tx, teamId: string, lead: FillableLead): Promise<void> {
  const { id, extraFields, ...fields } = lead;
  await tx.lead.updateMany({
    where: { id, teamId },
    data: { ...fields, ...searchKeys(fields), extraFields: rawJson(extraFields) },
  });
}

/** These leads of the team, newest first (the merge page). */
export function findLeadsForMerge(teamId: string, ids: readonly string[]): Promise<MergeRow[]> {
  return db().lead.findMany({ where: { teamId, id: { in: [...ids] } }, orderBy: { seq: "desc" }, select: MERGE_SELECT }) as Promise<
    MergeRow[]
  >;
}

export type MergedLead = Omit<MergeRow, "id" | "seq" | "createdAt" | "mergedLeadIds" | "extraFields"> & {
  extraFields: Record<string, unknown>;
  mergedLeadIds: string[];
};

/**
 * Merges leads into the survivor in one transaction: the rows are locked (PostgreSQL:
 * FOR UPDATE, in id order; SQLite: the transaction holds the write lock from BEGIN
 * IMMEDIATE), read again, `build` computes the survivor's new fields from what is stored
 * now, the merged rows are deleted and the survivor updated. A lead gone or moved
 * meanwhile throws MergeConflictError and nothing changes: of two merges of the same
 * leads, the second finds them gone.
 */
export async function mergeLeadRows(options: {
  teamId: string;
  survivorId: string;
  mergedIds: readonly string[];
  build: (survivor: MergeRow, merged: MergeRow[]) => MergedLead;
  beforeCommit?: (tx: Tx) => Promise<void>;
}): Promise<void> {
  const all = [options.survivorId, ...options.mergedIds];
  await db().$transaction(
    async (tx) => {
      if (env().DATABASE_PROVIDER === "postgres") {
        for (const id of [...all].sort()) await tx.$queryRaw`SELECT 1 FROM "Lead" WHERE "id" = ${id} FOR UPDATE`;
      }
      const rows = (await tx.lead.findMany({ where: { teamId: options.teamId, id: { in: all } }, select: MERGE_SELECT })) as MergeRow[];
      const survivor = rows.find((row) => row.id === options.survivorId);
      const merged = rows.filter((row) => row.id !== options.survivorId);
      if (!survivor || merged.length !== options.mergedIds.length) {
        throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      }
      const data = options.build(survivor, merged);
      const { count } = await tx.lead.deleteMany({ where: { teamId: options.teamId, id: { in: [...options.mergedIds] } } });
      if (count !== options.mergedIds.length) throw new MergeConflictError("A lead of this merge was merged or deleted meanwhile");
      await tx.lead.update({
        where: { id: options.survivorId },
        data: {
          ...data,
          ...searchKeys(data),
          extraFields: rawJson(data.extraFields),
          mergedLeadIds: rawJson(data.mergedLeadIds),
        },
        select: { id: true },
      });
      await options.beforeCommit?.(tx);
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** Up to `take` ids of the team's leads created before `cutoff`, oldest first (the (teamId, createdAt) index). */
export async function expiredLeadIds(teamId: string, cutoff: Date, take: number): Promise<string[]> {
  const rows = await db().lead.findMany({
    where: { teamId, createdAt: { lt: cutoff } },
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
