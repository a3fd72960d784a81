import { db, type Tx } from "../db/client";
import { findJsonRowsNaming, type PersonContacts } from "../leads/person-match";
import { now } from "../time/clock";

// Every database access for the spam quarantine (QuarantinedLead; docs/spam.md) but the
// intake's own insert (lib/leads/lead-writer-*.ts): Leads → Spam's list and count, each
// channel's count of the last 24 hours, and what an erasure finds and removes.

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
} as const;

const asReasons = (value: unknown): QuarantinedItem["reasons"] =>
  Array.isArray(value)
    ? value.flatMap((item) =>
        item && typeof item === "object" && typeof item.code === "string"
          ? [{ code: item.code as string, field: String(item.field ?? ""), points: Number(item.points ?? 0) }]
          : [],
      )
    : [];

/** The team's newest quarantined submissions (index [teamId, createdAt]), at most `take`. */
export async function listQuarantine(options: { teamId: string; take: number }): Promise<QuarantinedItem[]> {
  const rows = await db().quarantinedLead.findMany({
    where: { teamId: options.teamId },
    orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
    take: options.take,
    select: ITEM_SELECT,
  });
  return rows.map((row) => ({ ...row, reasons: asReasons(row.reasons) }));
}

/** A quarantined submission as a release writes it: the lead as stored and the source it asked for. */
export type QuarantinedLeadRow = { id: string; seq: number; lead: unknown; source: unknown };

/** The team's quarantined submission `id`, for its release; null when it is not there. */
export function findQuarantined(teamId: string, id: string): Promise<QuarantinedLeadRow | null> {
  return db().quarantinedLead.findFirst({ where: { teamId, id }, select: { id: true, seq: true, lead: true, source: true } });
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

/** How many submissions the team's quarantine holds (Leads → Spam's count), counted up to `cap` (cheap at any size). */
export function countQuarantine(teamId: string, cap: number): Promise<number> {
  return db().quarantinedLead.count({ where: { teamId }, take: cap });
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
