import { db, type Tx } from "../db/client";
import { newPasswordHash } from "./password";

// Every database access for users lives here, and nothing else: a store only stores. The
// audited changes of a user's account (ending their sessions, replacing their password)
// are user-changes.ts; the password policy is password-policy.ts, applied by
// newPasswordHash (password.ts).

export type User = { id: string; email: string; name: string | null };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(options: { email: string; password: string; name?: string }): Promise<User> {
  const email = normaliseEmail(options.email);
  return db().user.create({
    data: { email, name: options.name ?? null, passwordHash: await newPasswordHash(options.password, email) },
    select: { id: true, email: true, name: true },
  });
}

/** Replaces a stored hash by a stronger one of the same password (see needsRehash); only if it is still the one read. */
export async function upgradePasswordHash(options: { userId: string; from: string; to: string }): Promise<void> {
  await db().user.updateMany({ where: { id: options.userId, passwordHash: options.from }, data: { passwordHash: options.to } });
}

export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: normaliseEmail(email) } });
}

/** What a session needs on each request: who, and the session version its token must carry. */
export type SessionUserRow = User & { sessionVersion: number };

/** One read by primary key: this runs on every request that reads the session. */
export function findSessionUser(id: string): Promise<SessionUserRow | null> {
  return db().user.findUnique({ where: { id }, select: { id: true, email: true, name: true, sessionVersion: true } });
}

/** The email and password hash of a user, for a password change; null when the user is gone. */
export async function findCredentials(userId: string): Promise<{ email: string; passwordHash: string } | null> {
  return db().user.findUnique({ where: { id: userId }, select: { email: true, passwordHash: true } });
}

/**
 * Raises the user's session version: every session token issued before carries an older
 * one and signs nobody in (lib/auth/session-token.ts). False when there is no such user.
 */
export async function bumpSessionVersion(tx: Tx, userId: string): Promise<boolean> {
  const { count } = await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  return count === 1;
}

/**
 * Stores a new password hash and raises the session version with it. With `expectedHash`,
 * only when the stored hash is still that one. False when nothing was written.
 */
export async function writePasswordHash(
  tx: Tx,
  options: { userId: string; passwordHash: string; expectedHash?: string },
): Promise<boolean> {
  const { count } = await tx.user.updateMany({
    where: { id: options.userId, ...(options.expectedHash ? { passwordHash: options.expectedHash } : {}) },
    data: { passwordHash: options.passwordHash, sessionVersion: { increment: 1 } },
  });
  return count === 1;
}

/** The user's email and the teams they are a member of (a user's changes are audited in each). */
export async function findUserTeams(tx: Tx, userId: string): Promise<{ email: string; teamIds: string[] }> {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, memberships: { select: { teamId: true } } },
  });
  return { email: user.email, teamIds: user.memberships.map((membership) => membership.teamId) };
}

/** These users by id (a deleted one is absent), in one read: at most 500 ids. */
export async function findUsersByIds(ids: readonly string[]): Promise<Map<string, User>> {
  const unique = [...new Set(ids)].slice(0, 500);
  if (!unique.length) return new Map();
  const rows = await db().user.findMany({ where: { id: { in: unique } }, select: { id: true, email: true, name: true } });
  return new Map(rows.map((row) => [row.id, row]));
}
