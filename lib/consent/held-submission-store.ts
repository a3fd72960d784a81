import { db, type Tx } from "../db/client";

// Submissions held until the person confirms by email (HeldSubmission, docs/consent.md
// "Create the lead only once confirmed"). A store only stores: the rows carry the submission
// sealed (held-submissions.ts seals and opens it), never in plain text; the rules (the 24 h
// limit, what confirming or the expiry does) are held-submissions.ts' and double-opt-in.ts'.

/** Where a held submission was sent: a channel's kind and id ("form": a web form; connections may follow). */
export type HeldChannel = { kind: "form"; id: string };

export type HeldRow = {
  id: string;
  teamId: string;
  channelKind: string;
  channelId: string;
  personKey: string;
  tokenHash: string | null;
  sealed: string;
  createdAt: Date;
  expiresAt: Date;
};

export async function insertHeld(tx: Tx, row: HeldRow): Promise<void> {
  await tx.heldSubmission.create({ data: row, select: { id: true } });
}

/** When the person (team and address key) was last held with an email of their own; null when never (or all gone). */
export async function lastHeldEmailAt(tx: Tx, teamId: string, personKey: string): Promise<Date | null> {
  const row = await tx.heldSubmission.findFirst({
    where: { teamId, personKey, tokenHash: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  return row?.createdAt ?? null;
}

/** The held submission a token's hash names, with its team's name and slug; null when none. */
export async function findHeldByToken(hash: string): Promise<(HeldRow & { team: { name: string; slug: string } }) | null> {
  return db().heldSubmission.findUnique({ where: { tokenHash: hash }, include: { team: { select: { name: true, slug: true } } } });
}

/** One of the team's held submissions by id (the email job; confirming), with its team's name and slug. */
export async function findHeld(teamId: string, id: string): Promise<(HeldRow & { team: { name: string; slug: string } }) | null> {
  return db().heldSubmission.findFirst({ where: { id, teamId }, include: { team: { select: { name: true, slug: true } } } });
}

/** The person's held submissions of the team still valid at `at`, oldest first (what one confirmation creates). */
export function personHeld(teamId: string, personKey: string, at: Date): Promise<HeldRow[]> {
  return db().heldSubmission.findMany({
    where: { teamId, personKey, expiresAt: { gt: at } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Deletes held submissions inside `tx`; returns the rows deleted (what the channel's log names). */
export async function deleteHeld(tx: Tx, where: { ids?: readonly string[]; teamId?: string; personKeys?: readonly string[] }) {
  if (!where.ids && !where.personKeys) throw new Error("deleteHeld needs ids or person keys");
  const filter = {
    ...(where.ids ? { id: { in: [...where.ids] } } : {}),
    ...(where.teamId ? { teamId: where.teamId } : {}),
    ...(where.personKeys ? { personKey: { in: [...where.personKeys] } } : {}),
  };
  const rows = await tx.heldSubmission.findMany({ where: filter, select: { id: true, teamId: true, channelKind: true, channelId: true } });
  if (rows.length) await tx.heldSubmission.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
  return rows;
}

/** The team's held submissions of the person's address keys (an erasure's count). */
export function countPersonHeld(tx: Tx, teamId: string, personKeys: readonly string[]): Promise<number> {
  return tx.heldSubmission.count({ where: { teamId, personKey: { in: [...personKeys] } } });
}

/** Deletes a channel's held submissions inside `tx` (the channel was deleted). */
export async function deleteChannelHeld(tx: Tx, channel: HeldChannel): Promise<number> {
  const { count } = await tx.heldSubmission.deleteMany({ where: { channelKind: channel.kind, channelId: channel.id } });
  return count;
}

/** Up to `limit` held submissions whose link expired by `at`, oldest first, and whether each was confirmed (its lead written). */
export async function expiredHeld(
  at: Date,
  limit: number,
): Promise<(Pick<HeldRow, "id" | "teamId" | "channelKind" | "channelId"> & { spent: boolean })[]> {
  const rows = await db().heldSubmission.findMany({
    where: { expiresAt: { lte: at } },
    orderBy: { expiresAt: "asc" },
    take: limit,
    select: { id: true, teamId: true, channelKind: true, channelId: true },
  });
  if (!rows.length) return [];
  const spent = new Set(
    (await db().spentChallenge.findMany({ where: { id: { in: rows.map((row) => row.id) } }, select: { id: true } })).map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, spent: spent.has(row.id) }));
}
