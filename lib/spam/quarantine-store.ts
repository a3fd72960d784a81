import { db, type Tx } from "../db/client";
import { SQLITE_LOWER } from "../db/sqlite-adapter";
import { env } from "../env";
import { containsPattern, findJsonRowsNaming, type PersonContacts } from "../leads/person-match";
import { now } from "../time/clock";

// Every database access for the spam quarantine (QuarantinedLead; docs/spam.md) but the
// intake's own insert (lib/leads/lead-writer-*.ts) and a report's (lib/spam/report-spam.ts):
// Leads → Spam's list, search and count, each channel's count of the last 24 hours, what an
// erasure finds and removes, "Empty spam" and the retention's deletions.

/** A quarantined submission as Leads → Spam lists it. */
export type QuarantinedItem = {
  id: string;
  name: string;
  emailKey: string | null;
  phone: string | null;
  mobileNo: string | null;
  apiKeyId: string | null;
  formId: string | null;
  connectionId: string | null;
  score: number;
  reasons: { code: string; field: string; points: number }[];
  createdAt: Date;
  /** A lead a person moved here ("Spam" on a lead): when, and who (null: a user since deleted). */
  reportedAt: Date | null;
  reportedBy: { name: string | null; email: string } | null;
};

const ITEM_SELECT = {
  id: true,
  name: true,
  emailKey: true,
  phone: true,
  mobileNo: true,
  apiKeyId: true,
  formId: true,
  connectionId: true,
  score: true,
  reasons: true,
  createdAt: true,
  reportedAt: true,
  reportedById: true,
} as const;

const asReasons = (value: unknown): QuarantinedItem["reasons"] =>
  Array.isArray(value)
    ? value.flatMap((item) =>
        item && typeof item === "object" && typeof item.code === "string"
          ? [{ code: item.code as string, field: String(item.field ?? ""), points: Number(item.points ?? 0) }]
          : [],
      )
    : [];

/**
 * The condition of a search of Leads → Spam (`q`) on the alias q: the name, the email, the
 * phone or the mobile contains it, case-insensitively (every letter: PostgreSQL's LOWER under
 * ICU's root collation, and on SQLite the app's own, SQLITE_LOWER), its LIKE wildcards literal; a query with
 * three or more digits also matches the numbers by its digits ("020 7946 0123" finds
 * "+442079460123"). `bind` adds a value and returns its placeholder.
 */
function searchSql(text: string, bind: (value: string) => string, lower: (column: string) => string): string {
  const pattern = containsPattern(text);
  const tests = [lower(`q."name"`), `q."emailKey"`, `q."phone"`, `q."mobileNo"`].map(
    (column) => `${column} LIKE ${bind(pattern)} ESCAPE '\\'`,
  );
  // A national number's trunk zeros are not in its E.164 form ("020 7946" is "+44207946…").
  const digits = text.replace(/\D/g, "").replace(/^0+/, "");
  if (digits.length >= 3) tests.push(`q."phone" LIKE ${bind(`%${digits}%`)}`, `q."mobileNo" LIKE ${bind(`%${digits}%`)}`);
  return `(${tests.join(" OR ")})`;
}

let icuLower: Promise<(column: string) => string> | undefined;

/**
 * PostgreSQL's lower-casing of every letter, whatever the database's locale: LOWER under the
 * database's LC_CTYPE folds ASCII only when that is C (as `initdb --locale=C` makes it), so
 * ICU's root collation is used where the server has ICU (Debian's and the official images'
 * builds do); plain LOWER where it has not. Looked up once per process.
 */
function postgresLower(): Promise<(column: string) => string> {
  icuLower ??= db()
    .$queryRawUnsafe<{ found: number }[]>(`SELECT 1 AS "found" FROM pg_collation WHERE collname = 'und-x-icu' LIMIT 1`)
    .then((rows) => (rows.length ? (column: string) => `LOWER(${column} COLLATE "und-x-icu")` : (column: string) => `LOWER(${column})`))
    .catch((error: unknown) => {
      icuLower = undefined;
      throw error;
    });
  return icuLower;
}

/** The ids of the team's quarantined submissions matching a search, newest first, at most `take`; null for no search. */
async function searchIds(teamId: string, query: string | undefined, take: number): Promise<string[] | null> {
  const text = query?.trim() ?? "";
  if (!text) return null;
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const values: string[] = [];
  // SQLite's "?" are positional: a value used twice is bound twice; PostgreSQL's $n once.
  const bind = (value: string) => {
    if (postgres && values.includes(value)) return `$${values.indexOf(value) + 1}`;
    values.push(value);
    return postgres ? `$${values.length}` : "?";
  };
  const team = bind(teamId);
  const lower = postgres ? await postgresLower() : (column: string) => `${SQLITE_LOWER}(${column})`;
  const condition = searchSql(text, bind, lower);
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `SELECT q."id" FROM "QuarantinedLead" q WHERE q."teamId" = ${team} AND ${condition}
      ORDER BY q."createdAt" DESC, q."seq" DESC LIMIT ${Math.max(0, Math.floor(take))}`,
    ...values,
  );
  return rows.map((row) => row.id);
}

type ItemRow = Awaited<ReturnType<typeof findItems>>[number];

function findItems(where: { teamId: string; id?: { in: string[] } }, take: number) {
  return db().quarantinedLead.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
    take,
    select: ITEM_SELECT,
  });
}

async function toItems(rows: ItemRow[]): Promise<QuarantinedItem[]> {
  const reporterIds = [...new Set(rows.flatMap((row) => (row.reportedById ? [row.reportedById] : [])))];
  const reporters = reporterIds.length
    ? new Map(
        (await db().user.findMany({ where: { id: { in: reporterIds } }, select: { id: true, name: true, email: true } })).map((user) => [
          user.id,
          { name: user.name, email: user.email },
        ]),
      )
    : new Map<string, { name: string | null; email: string }>();
  return rows.map(({ reportedById, ...row }) => ({
    ...row,
    reasons: asReasons(row.reasons),
    reportedBy: reportedById ? (reporters.get(reportedById) ?? null) : null,
  }));
}

/** The team's newest quarantined submissions (index [teamId, createdAt]) matching `query` (searchSql), at most `take`. */
export async function listQuarantine(options: { teamId: string; take: number; query?: string }): Promise<QuarantinedItem[]> {
  const ids = await searchIds(options.teamId, options.query, options.take);
  if (ids && !ids.length) return [];
  return toItems(await findItems({ teamId: options.teamId, ...(ids ? { id: { in: ids } } : {}) }, options.take));
}

/** A quarantined submission as a release writes it: the lead as stored and the source it asked for. */
/** `consent`: the evidence the intake derived (ConsentDraft as JSON), or null. */
export type QuarantinedLeadRow = { id: string; seq: number; lead: unknown; source: unknown; consent: unknown };

/** The team's quarantined submission `id`, for its release; null when it is not there. */
export function findQuarantined(teamId: string, id: string): Promise<QuarantinedLeadRow | null> {
  return db().quarantinedLead.findFirst({
    where: { teamId, id },
    select: { id: true, seq: true, lead: true, source: true, consent: true },
  });
}

/** The request log's rows of a released submission stop calling it quarantined: they name its lead. */
export async function clearSpamMark(teamId: string, leadId: string): Promise<void> {
  await db().apiRequest.updateMany({ where: { teamId, leadId }, data: { spam: null } });
}

/** Of these lead ids, those in the team's quarantine (a log that names them says so). */
export async function quarantinedAmong(teamId: string, ids: readonly (string | null)[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (!wanted.length) return new Set();
  const rows = await db().quarantinedLead.findMany({ where: { teamId, id: { in: wanted } }, select: { id: true } });
  return new Set(rows.map((row) => row.id));
}

/** How many submissions the team's quarantine holds (Leads → Spam's count), or match `query`, counted up to `cap` (cheap at any size). */
export async function countQuarantine(teamId: string, cap: number, query?: string): Promise<number> {
  const ids = await searchIds(teamId, query, cap);
  return ids ? ids.length : db().quarantinedLead.count({ where: { teamId }, take: cap });
}

/** Deletes the team's whole quarantine ("Empty spam") inside `tx`; how many went. */
export async function deleteTeamQuarantine(tx: Tx, teamId: string): Promise<number> {
  return (await tx.quarantinedLead.deleteMany({ where: { teamId } })).count;
}

/** Every team and how many days its quarantined submissions are kept (Team.spamRetentionDays). */
export function teamsSpamRetention(): Promise<{ id: string; spamRetentionDays: number }[]> {
  return db().team.findMany({ select: { id: true, spamRetentionDays: true }, orderBy: { id: "asc" } });
}

/** The team's quarantined submissions received before `cutoff`, oldest first, at most `take` (index [teamId, createdAt]). */
export async function expiredQuarantineIds(teamId: string, cutoff: Date, take: number): Promise<string[]> {
  const rows = await db().quarantinedLead.findMany({
    where: { teamId, createdAt: { lt: cutoff } },
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** Deletes these quarantined submissions of the team inside `tx` (in chunks: the bound-parameter limits); how many went. */
export async function deleteQuarantinedIds(tx: Tx, teamId: string, ids: readonly string[], before: Date): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += 500) {
    // Still older than the cutoff: a submission released and reported again meanwhile stays.
    const where = { teamId, id: { in: ids.slice(i, i + 500) }, createdAt: { lt: before } };
    deleted += (await tx.quarantinedLead.deleteMany({ where })).count;
  }
  return deleted;
}

/** The window of a channel's spam count on its card. */
export const CHANNEL_SPAM_WINDOW_HOURS = 24;

/**
 * How many submissions each of the team's keys (`by` "apiKeyId"), forms ("formId") or
 * connections ("connectionId") sent to the quarantine in the last 24 hours (the app's clock):
 * one grouped query on the index [teamId, createdAt], for a list page's cards. A channel with
 * none is absent.
 */
export async function recentSpamCounts(teamId: string, by: "apiKeyId" | "formId" | "connectionId"): Promise<Map<string, number>> {
  const since = new Date(now().getTime() - CHANNEL_SPAM_WINDOW_HOURS * 60 * 60 * 1000);
  const rows = await db().quarantinedLead.groupBy({
    by: [by],
    where: { teamId, createdAt: { gte: since }, [by]: { not: null } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row[by]!, row._count._all]));
}

/** The team's quarantined submissions that name the person (their email or a number, in any field). */
export async function findQuarantinedNaming(client: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<string[]> {
  return (await findJsonRowsNaming(client, { table: "QuarantinedLead", json: "lead", ...options })).map((row) => row.id);
}

/** Erases them (findQuarantinedNaming) inside the erasure's transaction; the ids erased (their log rows and stored answers go too). */
export async function eraseQuarantinedNaming(tx: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<string[]> {
  const ids = await findQuarantinedNaming(tx, options);
  if (!ids.length) return [];
  await tx.quarantinedLead.deleteMany({ where: { teamId: options.teamId, id: { in: ids } } });
  return ids;
}
