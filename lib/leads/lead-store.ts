import { db, type Tx } from "../db/client";
import { env } from "../env";
import { rawJson } from "../db/raw-json";
import { formatLeadId } from "./lead-id";
import type { ExtraFieldValue } from "./parse-lead-input";

// Every database access for leads lives here.

export type NewLead = {
  teamId: string;
  apiKeyId: string | null;
  formId: string | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  phoneCountryCode: string | null;
  phoneNational: string | null;
  mobileNo: string | null;
  mobileCountryCode: string | null;
  mobileNational: string | null;
  skippedPhone: string | null;
  skippedMobileNo: string | null;
  skippedWebsite: string | null;
  organization: string;
  sourceId: string;
  jobTitle: string | null;
  website: string | null;
  territory: string | null;
  industry: string | null;
  annualRevenue: string | null;
  noOfEmployees: string | null;
  currency: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  extraFields: Record<string, ExtraFieldValue>;
};

const LEAD_COUNTER = "lead";

/** Lower-cased copies of the searchable fields (see listLeads). */
function searchKeys(lead: Pick<NewLead, "firstName" | "lastName" | "email" | "organization">) {
  const fullName = [lead.firstName, lead.lastName].filter(Boolean).join(" ");
  return {
    emailKey: lead.email?.toLowerCase() ?? null,
    nameKey: searchKey(fullName),
    lastNameKey: lead.lastName ? searchKey(lead.lastName) : null,
    organizationKey: searchKey(lead.organization),
  };
}

export function searchKey(text: string): string {
  return text.trim().toLowerCase();
}

// Extra fields are caller-chosen names ("__proto__", "$type"…): stored through rawJson.

/**
 * Inserts a lead with the next CRM-LEAD id. The counter row is advanced in the same
 * transaction as the insert, so a failed insert returns its number (no gaps) and the
 * row lock serialises concurrent allocations (no duplicates), on every instance.
 */
export async function insertLead(
  lead: NewLead,
  /** Runs inside the transaction after the insert (e.g. storing an idempotent response). */
  beforeCommit?: (tx: Tx, leadId: string) => Promise<void>,
): Promise<string> {
  return db().$transaction(
    async (tx) => {
      // Raw: the same statement Prisma would send, without compiling it per call.
      const [row] = await tx.$queryRaw<{ value: number | bigint }[]>`
        UPDATE "Counter" SET "value" = "value" + 1 WHERE "name" = ${LEAD_COUNTER} RETURNING "value"`;
      if (!row) throw new Error(`The "${LEAD_COUNTER}" counter row is missing`);
      const counter = { value: Number(row.value) };
      const id = formatLeadId(counter.value);
      await tx.lead.create({
        data: {
          ...lead,
          id,
          seq: counter.value,
          ...searchKeys(lead),
          extraFields: rawJson(lead.extraFields),
        },
        select: { id: true },
      });
      await beforeCommit?.(tx, id);
      return id;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
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
export async function countLeadsUpTo(teamId: string, cap: number): Promise<{ count: number; capped: boolean }> {
  const [row] = await db().$queryRaw<{ count: number | bigint }[]>`
    SELECT COUNT(*) AS "count" FROM (SELECT 1 FROM "Lead" WHERE "teamId" = ${teamId} LIMIT ${cap + 1}) AS "capped"`;
  const count = Number(row?.count ?? 0);
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

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
  /** seq cursors: pass as `before` for newer leads, as `after` for older ones. */
  newerCursor: number | null;
  olderCursor: number | null;
};

/**
 * One page of a team's leads, newest first, by keyset pagination on seq. `query`
 * matches the start of the full name, the last name, the email or the organization,
 * case-insensitively.
 */
export async function listLeads(options: {
  teamId: string;
  query?: string;
  after?: number;
  before?: number;
  take?: number;
}): Promise<LeadPage> {
  const take = options.take ?? LEAD_PAGE_SIZE;
  const key = options.query ? searchKey(options.query) : "";
  const search = key
    ? {
        // teamId inside each branch: SQLite can then answer the OR from the four
        // (teamId, key) indexes (MULTI-INDEX OR) instead of walking every lead of the
        // team by seq (docs/performance.md).
        OR: [
          { teamId: options.teamId, nameKey: startsWith(key) },
          { teamId: options.teamId, lastNameKey: startsWith(key) },
          { teamId: options.teamId, emailKey: startsWith(key) },
          { teamId: options.teamId, organizationKey: startsWith(key) },
        ],
      }
    : {};
  const backwards = options.before !== undefined && options.after === undefined;
  const seq = backwards ? { gt: options.before } : options.after !== undefined ? { lt: options.after } : undefined;
  const rows = await db().lead.findMany({
    // With a search, teamId is inside each OR branch only: an outer teamId makes SQLite
    // prefer walking (teamId, seq) to skip the sort.
    where: { ...(key ? search : { teamId: options.teamId }), ...(seq ? { seq } : {}) },
    orderBy: { seq: backwards ? "asc" : "desc" },
    take: take + 1,
    select: {
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
    },
  });
  const hasMore = rows.length > take;
  const page = rows.slice(0, take);
  if (backwards) page.reverse();
  const duplicates = await duplicateIds(options.teamId, page);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    leads: page.map((row) => ({
      id: row.id,
      name: [row.firstName, row.lastName].filter(Boolean).join(" "),
      organization: row.organization,
      email: row.email,
      source: row.source.name,
      createdAt: row.createdAt,
      possibleDuplicate: duplicates.has(row.id),
    })),
    newerCursor: first && (backwards ? hasMore : options.after !== undefined) ? first.seq : null,
    olderCursor: last && (backwards ? true : hasMore) ? last.seq : null,
  };
}

type DuplicateProbe = { id: string; emailKey: string | null; phone: string | null; mobileNo: string | null };

/** Which of these leads share an email or an E.164 number with another lead of the team. */
async function duplicateIds(teamId: string, leads: DuplicateProbe[]): Promise<Set<string>> {
  const emails = [...new Set(leads.flatMap((l) => (l.emailKey ? [l.emailKey] : [])))];
  const numbers = [...new Set(leads.flatMap((l) => [l.phone, l.mobileNo].filter((n): n is string => !!n)))];
  const [byEmail, byPhone, byMobile] = await Promise.all([
    emails.length
      ? db().lead.groupBy({ by: ["emailKey"], where: { teamId, emailKey: { in: emails } }, _count: { _all: true } })
      : [],
    numbers.length
      ? db().lead.groupBy({ by: ["phone"], where: { teamId, phone: { in: numbers } }, _count: { _all: true } })
      : [],
    numbers.length
      ? db().lead.groupBy({ by: ["mobileNo"], where: { teamId, mobileNo: { in: numbers } }, _count: { _all: true } })
      : [],
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
    ...(numbers.length ? [{ teamId, phone: { in: numbers } }, { teamId, mobileNo: { in: numbers } }] : []),
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
