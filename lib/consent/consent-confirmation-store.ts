import { createHash } from "node:crypto";
import { db, type Tx } from "../db/client";
import { env } from "../env";

// The double opt-in emails (ConsentConfirmation, docs/consent.md "Double opt-in"): one row per
// email, the link's token kept only as its SHA-256, confirmed once. A store only stores: the
// rules (the 24 h limit, already confirmed, expiry) are double-opt-in.ts'.

export type ConfirmationRow = {
  id: string;
  teamId: string;
  leadId: string;
  createdAt: Date;
  expiresAt: Date;
  confirmedAt: Date | null;
};

const ROW_SELECT = { id: true, teamId: true, leadId: true, createdAt: true, expiresAt: true, confirmedAt: true } as const;

/**
 * Holds the person's (team and address) lock until `tx` ends, so two submissions of one person
 * at once, on any instance, cannot both pass the 24 h limit. PostgreSQL: a transaction-scoped
 * advisory lock (its key a hash: nothing the sender wrote is in the SQL); SQLite runs one
 * write transaction at a time already.
 */
export async function lockPerson(tx: Tx, teamId: string, emailKey: string): Promise<void> {
  if (env().DATABASE_PROVIDER !== "postgres") return;
  const key = createHash("sha256").update(`consent-confirmation\u0000${teamId}\u0000${emailKey}`).digest().readBigInt64BE(0);
  await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${key})) AS held`;
}

/** The person's emails in this team (by address), newest first: whether one was confirmed, when the last was sent. */
export async function personConfirmations(tx: Tx, teamId: string, emailKey: string): Promise<{ confirmed: boolean; lastAt: Date | null }> {
  const [confirmed, last] = await Promise.all([
    tx.consentConfirmation.findFirst({ where: { teamId, emailKey, confirmedAt: { not: null } }, select: { id: true } }),
    tx.consentConfirmation.findFirst({ where: { teamId, emailKey }, orderBy: { createdAt: "desc" }, select: { createdAt: true } }),
  ]);
  return { confirmed: confirmed !== null, lastAt: last?.createdAt ?? null };
}

export async function insertConfirmation(
  tx: Tx,
  row: ConfirmationRow & { emailKey: string; tokenHash: string; sentById: string | null },
): Promise<void> {
  await tx.consentConfirmation.create({ data: row, select: { id: true } });
}

/** The confirmation a token's hash names, with its address (lower case) and its team's name and slug; null when none. */
export async function findConfirmation(
  hash: string,
): Promise<(ConfirmationRow & { emailKey: string; team: { name: string; slug: string } }) | null> {
  const row = await db().consentConfirmation.findUnique({
    where: { tokenHash: hash },
    select: { ...ROW_SELECT, emailKey: true, lead: { select: { team: { select: { name: true, slug: true } } } } },
  });
  if (!row) return null;
  const { lead, ...rest } = row;
  return { ...rest, team: lead.team };
}

/** What the email job needs at send time: the row, the person's address, the team's name and slug. */
export async function confirmationForEmail(teamId: string, id: string) {
  return db().consentConfirmation.findFirst({
    where: { id, teamId },
    select: { ...ROW_SELECT, lead: { select: { email: true, team: { select: { name: true, slug: true } } } } },
  });
}

/** Marks it confirmed at `at` once, while it is valid; false when it was confirmed before or has expired (single use). */
export async function markConfirmed(tx: Tx, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.consentConfirmation.updateMany({
    where: { id, confirmedAt: null, expiresAt: { gt: at } },
    data: { confirmedAt: at },
  });
  return count === 1;
}

/** Whether another email of the same lead was confirmed already. */
export async function leadConfirmed(tx: Tx, leadId: string): Promise<boolean> {
  return (await tx.consentConfirmation.count({ where: { leadId, confirmedAt: { not: null } } })) > 0;
}

/** The lead's emails, newest first (its page). */
export function leadConfirmations(options: { teamId: string; leadId: string }): Promise<ConfirmationRow[]> {
  return db().consentConfirmation.findMany({
    where: { teamId: options.teamId, leadId: options.leadId },
    orderBy: { createdAt: "desc" },
    select: ROW_SELECT,
  });
}
