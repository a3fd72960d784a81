import { recordAuditEvent, type AuditAction, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { bumpSessionVersion, findUserTeams, writePasswordHash } from "./user-store";

// The audited changes of a user's account: ending every session, replacing the password.
// Each is one transaction with its audit events, one in each of the user's teams (a user
// belongs to no team's log alone); a refused change writes none. The rows are
// user-store.ts'.

/** Records `action` about the user in each of their teams, in the caller's transaction. */
export async function auditInEachTeam(tx: Tx, userId: string, action: AuditAction, actor: AuditActor): Promise<void> {
  const { email, teamIds } = await findUserTeams(tx, userId);
  for (const teamId of teamIds) {
    await recordAuditEvent({ teamId, action, actor, targetId: userId, details: { email } }, tx);
  }
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
    if (!(await bumpSessionVersion(tx, userId))) return false;
    if (actor) await auditInEachTeam(tx, userId, "member.sessions_ended", actor);
    return true;
  });
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
    if (!(await writePasswordHash(tx, { userId, passwordHash, expectedHash }))) return false;
    await auditInEachTeam(tx, userId, action, actor);
    return true;
  });
}
