import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { hashPassword } from "./password";
import { assertPasswordAcceptable } from "./password-policy";

// Every database access for users lives here.

export type User = { id: string; email: string; name: string | null };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The hash to store for a password someone chose: every path that sets a password comes
 * through here, so the policy is always the server's (throws PasswordPolicyError).
 */
export async function newPasswordHash(password: string, email: string): Promise<string> {
  assertPasswordAcceptable(password, { email });
  return hashPassword(password);
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

/**
 * Ends every session of the user, on every device: session tokens carry the version
 * they were issued with, and a token with an older one signs nobody in. Called by
 * sign-out, by a password change and by the operator CLI. With an actor (the CLI),
 * each of the user's teams gets a `member.sessions_ended` audit event in the same
 * transaction. Returns false when there is no such user.
 */
export async function endAllSessions(userId: string, options: { actor?: AuditActor } = {}): Promise<boolean> {
  const actor = options.actor;
  return db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
    if (count !== 1 || !actor) return count === 1;
    const user = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, memberships: { select: { teamId: true } } },
    });
    for (const { teamId } of user.memberships) {
      await recordAuditEvent({ teamId, action: "member.sessions_ended", actor, targetId: userId, details: { email: user.email } }, tx);
    }
    return true;
  });
}

/** The email and password hash of a user, for a password change; null when the user is gone. */
export async function findCredentials(userId: string): Promise<{ email: string; passwordHash: string } | null> {
  return db().user.findUnique({ where: { id: userId }, select: { email: true, passwordHash: true } });
}

/**
 * Stores a new password hash, ends every session (sessionVersion) and records `action` in
 * each of the user's teams, all in one transaction. With `expectedHash`, only when the
 * stored hash is still that one (two changes at once: the second fails).
 */
export async function replacePassword(
  userId: string,
  passwordHash: string,
  action: "user.password_changed" | "user.password_reset",
  actor: AuditActor,
  expectedHash?: string,
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, ...(expectedHash ? { passwordHash: expectedHash } : {}) },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    if (count !== 1) return false;
    const user = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, memberships: { select: { teamId: true } } },
    });
    for (const { teamId } of user.memberships) {
      await recordAuditEvent({ teamId, action, actor, targetId: userId, details: { email: user.email } }, tx);
    }
    return true;
  });
}
