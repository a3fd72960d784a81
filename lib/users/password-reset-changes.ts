import { CLI_ACTOR, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { now } from "../time/clock";
import { digestToken, newLinkToken } from "./link-token";
import { newPasswordHash } from "./password";
import { findOpenReset, findResetUserId, replaceOpenResets, spendReset } from "./password-reset-store";
import { auditInEachTeam, replacePassword } from "./user-changes";
import { findUserByEmail } from "./user-store";

// Password resets, the use cases. The operator makes a one-time link (npm run users --
// reset-password <email>); its token has 256 random bits and only its digest is stored
// (password-reset-store.ts). The link sets a new password once, within 24 h, and ends
// every session of the user. Both steps are audited in each of the user's teams.

const RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type CreatedReset = { token: string; email: string; expiresAt: Date };

/** A new reset link for the user with this email (earlier unused links stop working); null when there is no such user. */
export async function createPasswordReset(email: string, actor: AuditActor = CLI_ACTOR): Promise<CreatedReset | null> {
  const user = await findUserByEmail(email);
  if (!user) return null;
  const token = newLinkToken();
  const expiresAt = new Date(now().getTime() + RESET_LIFETIME_MS);
  await db().$transaction(async (tx) => {
    await replaceOpenResets(tx, { userId: user.id, tokenDigest: digestToken(token), expiresAt });
    await auditInEachTeam(tx, user.id, "user.password_reset", actor);
  });
  return { token, email: user.email, expiresAt };
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
  const userId = await findResetUserId(digest);
  if (!userId) return false;
  if (!(await spendReset(digest))) return false;
  return replacePassword(userId, passwordHash, "user.password_changed", { userId, ip: options.ip, via: "web" });
}
