import { db, type Tx } from "../db/client";
import { now } from "../time/clock";
import { digestToken } from "./link-token";

// Every database access for password resets lives here, and nothing else: a store only
// stores. Making a link and setting a password through it are password-reset-changes.ts.
// Only the SHA-256 digest of a link's token is stored, as for invites.

/** Stores a new reset link for the user, in place of their unused ones (those stop working). */
export async function replaceOpenResets(tx: Tx, options: { userId: string; tokenDigest: string; expiresAt: Date }): Promise<void> {
  await tx.passwordReset.deleteMany({ where: { userId: options.userId, usedAt: null } });
  await tx.passwordReset.create({ data: { userId: options.userId, tokenDigest: options.tokenDigest, expiresAt: options.expiresAt } });
}

/** The email an open reset link is for, or null (unknown, used, expired or replaced). */
export async function findOpenReset(token: string): Promise<{ email: string } | null> {
  if (token.length > 100) return null;
  const reset = await db().passwordReset.findUnique({
    where: { tokenDigest: digestToken(token) },
    select: { usedAt: true, expiresAt: true, user: { select: { email: true } } },
  });
  if (!reset || reset.usedAt || reset.expiresAt.getTime() <= now().getTime()) return null;
  return { email: reset.user.email };
}

/** The user a reset link (by its token's digest) was made for, used or not; null when unknown. */
export async function findResetUserId(tokenDigest: string): Promise<string | null> {
  const reset = await db().passwordReset.findUnique({ where: { tokenDigest }, select: { userId: true } });
  return reset?.userId ?? null;
}

/** Marks the link used, in one conditional update: true only for the one call that found it open. */
export async function spendReset(tokenDigest: string): Promise<boolean> {
  const { count } = await db().passwordReset.updateMany({
    where: { tokenDigest, usedAt: null, expiresAt: { gt: now() } },
    data: { usedAt: now() },
  });
  return count === 1;
}
