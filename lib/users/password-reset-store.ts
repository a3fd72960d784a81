import { CLI_ACTOR, recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { now } from "../time/clock";
import { digestToken, newLinkToken } from "./link-token";
import { newPasswordHash, normaliseEmail, replacePassword } from "./user-store";

// Every database access for password resets lives here. The operator makes a one-time link
// (npm run users -- reset-password <email>); only the SHA-256 digest of its token (256
// random bits) is stored, as for invites. The link sets a new password once, within 24 h,
// and ends every session of the user.

const RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type CreatedReset = { token: string; email: string; expiresAt: Date };

/** A new reset link for the user with this email (earlier unused links stop working); null when there is no such user. */
export async function createPasswordReset(email: string, actor: AuditActor = CLI_ACTOR): Promise<CreatedReset | null> {
  const user = await db().user.findUnique({
    where: { email: normaliseEmail(email) },
    select: { id: true, email: true, memberships: { select: { teamId: true } } },
  });
  if (!user) return null;
  const token = newLinkToken();
  const expiresAt = new Date(now().getTime() + RESET_LIFETIME_MS);
  await db().$transaction(async (tx) => {
    await tx.passwordReset.deleteMany({ where: { userId: user.id, usedAt: null } });
    await tx.passwordReset.create({ data: { userId: user.id, tokenDigest: digestToken(token), expiresAt } });
    for (const { teamId } of user.memberships) {
      await recordAuditEvent({ teamId, action: "user.password_reset", actor, targetId: user.id, details: { email: user.email } }, tx);
    }
  });
  return { token, email: user.email, expiresAt };
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

/**
 * Sets the new password through an open link: the link is spent in one conditional update
 * (two uses at once: one wins), then the password is replaced, every session ended and the
 * change audited as the user's own. Throws PasswordPolicyError for a weak password (the
 * link stays open). Returns false for a link that is not open.
 */
export async function resetPassword(options: { token: string; password: string; ip: string | null }): Promise<boolean> {
  const open = await findOpenReset(options.token);
  if (!open) return false;
  const passwordHash = await newPasswordHash(options.password, open.email);
  const digest = digestToken(options.token);
  const reset = await db().passwordReset.findUnique({ where: { tokenDigest: digest }, select: { userId: true } });
  if (!reset) return false;
  const { count } = await db().passwordReset.updateMany({
    where: { tokenDigest: digest, usedAt: null, expiresAt: { gt: now() } },
    data: { usedAt: now() },
  });
  if (count !== 1) return false;
  return replacePassword(reset.userId, passwordHash, "user.password_changed", { userId: reset.userId, ip: options.ip, via: "web" });
}
