import { join } from "@prisma/client/runtime/client";
import type { Tx } from "../db/client";
import { env } from "../env";

// The rows of a lead's status and owner (docs/routing.md): read and locked for a change,
// written, and a leaving member's leads released. The rules, the transaction, the audit
// events and the lead.updated deliveries are lead-ownership.ts'.

export type OwnershipRow = { id: string; status: string; ownerId: string | null; firstContactedAt: Date | null };

/** Statements stay under the databases' bound-parameter limits. */
const CHUNK = 500;

/**
 * These leads of the team as `tx` sees them, locked for the rest of it (PostgreSQL: FOR
 * UPDATE in id order, as a merge locks them, so two changes of overlapping leads never
 * wait on each other crosswise; SQLite: the transaction holds the write lock from BEGIN
 * IMMEDIATE). Another team's lead, or one that is gone, is not among them.
 */
export async function lockOwnershipRows(tx: Tx, teamId: string, ids: readonly string[]): Promise<OwnershipRow[]> {
  if (!ids.length) return [];
  if (env().DATABASE_PROVIDER === "postgres") {
    await tx.$queryRaw`SELECT 1 FROM "Lead" WHERE "teamId" = ${teamId} AND "id" IN (${join([...ids])}) ORDER BY "id" FOR UPDATE`;
  }
  return tx.lead.findMany({
    where: { teamId, id: { in: [...ids] } },
    orderBy: { id: "asc" },
    select: { id: true, status: true, ownerId: true, firstContactedAt: true },
  });
}

/**
 * Sets the status of these leads of the team; of `firstContacted`, those not contacted before
 * get `at` as their first contact (it is never moved once set).
 */
export async function writeLeadStatus(
  tx: Tx,
  options: { teamId: string; ids: readonly string[]; status: string; firstContacted: readonly string[]; at: Date },
): Promise<void> {
  const { teamId } = options;
  if (options.ids.length) await tx.lead.updateMany({ where: { teamId, id: { in: [...options.ids] } }, data: { status: options.status } });
  if (options.firstContacted.length) {
    await tx.lead.updateMany({
      where: { teamId, id: { in: [...options.firstContacted] }, firstContactedAt: null },
      data: { firstContactedAt: options.at },
    });
  }
}

/** Gives these leads of the team to `ownerId` since `at`, or (null) leaves them unassigned. */
export async function writeLeadOwner(tx: Tx, options: { teamId: string; ids: readonly string[]; ownerId: string | null; at: Date }) {
  if (!options.ids.length) return;
  await tx.lead.updateMany({
    where: { teamId: options.teamId, id: { in: [...options.ids] } },
    data: { ownerId: options.ownerId, assignedAt: options.ownerId ? options.at : null },
  });
}

/** Leaves every lead of the team that `userId` owns unassigned; returns their ids, in id order. */
export async function releaseOwnedLeads(tx: Tx, options: { teamId: string; userId: string }): Promise<string[]> {
  const rows = await tx.lead.updateManyAndReturn({
    where: { teamId: options.teamId, ownerId: options.userId },
    data: { ownerId: null, assignedAt: null },
    select: { id: true },
  });
  return rows.map((row) => row.id).sort();
}

export type OwnerView = { id: string; email: string; name: string | null };

/** These users as events name an owner (a user deleted since is not among them). */
export async function ownerViews(tx: Tx, userIds: readonly string[]): Promise<Map<string, OwnerView>> {
  const ids = [...new Set(userIds)];
  const views = new Map<string, OwnerView>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await tx.user.findMany({ where: { id: { in: ids.slice(i, i + CHUNK) } }, select: { id: true, email: true, name: true } });
    for (const row of rows) views.set(row.id, row);
  }
  return views;
}
