import { db, type Tx } from "../db/client";
import { suppressionHash } from "./suppression-key";

// The team's suppression list (ConsentSuppression, docs/consent.md "Withdrawal and the
// suppression list"): the keyed hashes of the addresses of people who withdrew consent or were
// erased, one row per team and address (the first reason and time are kept). The plain address
// is never written here.

export type SuppressionReason = "withdrawn" | "erased";

/** Puts the addresses on the team's list inside `tx` (an address already on it keeps its row). */
export async function suppressAddresses(
  tx: Tx,
  options: { teamId: string; emails: readonly (string | null)[]; reason: SuppressionReason; at: Date },
): Promise<void> {
  const hashes = new Set(options.emails.flatMap((email) => (email?.trim() ? [suppressionHash(email)] : [])));
  for (const emailHash of hashes)
    await tx.consentSuppression.upsert({
      where: { teamId_emailHash: { teamId: options.teamId, emailHash } },
      create: { teamId: options.teamId, emailHash, reason: options.reason, createdAt: options.at },
      update: {},
    });
}

/** The team's list entry for the address (why and since when), or null. */
export async function findSuppression(
  teamId: string,
  email: string | null | undefined,
): Promise<{ reason: SuppressionReason; createdAt: Date } | null> {
  if (!email?.trim()) return null;
  const row = await db().consentSuppression.findUnique({
    where: { teamId_emailHash: { teamId, emailHash: suppressionHash(email) } },
    select: { reason: true, createdAt: true },
  });
  return row && { reason: row.reason as SuppressionReason, createdAt: row.createdAt };
}

/** The entries of the addresses on the team's list inside `tx` (an import's batch), by address as given. */
export async function findSuppressions(
  tx: Tx,
  teamId: string,
  emails: readonly (string | null)[],
): Promise<Map<string, { reason: SuppressionReason; createdAt: Date }>> {
  const byHash = new Map<string, string[]>();
  for (const email of new Set(emails)) {
    if (!email?.trim()) continue;
    const hash = suppressionHash(email);
    byHash.set(hash, [...(byHash.get(hash) ?? []), email]);
  }
  const found = new Map<string, { reason: SuppressionReason; createdAt: Date }>();
  if (!byHash.size) return found;
  const rows = await tx.consentSuppression.findMany({
    where: { teamId, emailHash: { in: [...byHash.keys()] } },
    select: { emailHash: true, reason: true, createdAt: true },
  });
  for (const row of rows)
    for (const email of byHash.get(row.emailHash) ?? [])
      found.set(email, { reason: row.reason as SuppressionReason, createdAt: row.createdAt });
  return found;
}

/** Removes the address from the team's list; its reason, or null when it was not on it. */
export async function deleteSuppression(tx: Tx, teamId: string, email: string): Promise<SuppressionReason | null> {
  const where = { teamId_emailHash: { teamId, emailHash: suppressionHash(email) } };
  const row = await tx.consentSuppression.findUnique({ where, select: { reason: true } });
  if (!row) return null;
  await tx.consentSuppression.delete({ where });
  return row.reason as SuppressionReason;
}
