import type { AuditActor } from "../audit/audit-log";
import { clearSignInFailures, passwordRetryAfter, recordSignInFailure } from "../rate-limit/sign-in-limits";
import { newPasswordHash, verifyPassword } from "./password";
import { replacePassword } from "./user-changes";
import { findCredentials } from "./user-store";

// A signed-in user changes their password (Account → Change password). The current
// password is a guess at the same secret as a sign-in: it is checked against, and spends,
// the sign-in form's failure budgets (lib/rate-limit/sign-in-limits.ts), so a stolen
// session cannot be used to guess the password without limit (issue 27).

export type PasswordChangeResult = "changed" | "wrong-current-password" | "no-user" | { retryAfterSeconds: number };

/**
 * The current password is required, the new one must pass the policy (throws
 * PasswordPolicyError), and every session of the user ends (the caller signs the current
 * browser in again with the new password). Audited in each of the user's teams, in the
 * same transaction. Refused without checking the password once the budget is spent.
 */
export async function changePassword(options: {
  userId: string;
  current: string;
  next: string;
  actor: AuditActor;
}): Promise<PasswordChangeResult> {
  const user = await findCredentials(options.userId);
  if (!user) return "no-user";
  const ip = options.actor.ip ?? "unknown";
  const retryAfterSeconds = await passwordRetryAfter(user.email, ip);
  if (retryAfterSeconds !== null) return { retryAfterSeconds };
  if (!(await verifyPassword(options.current, user.passwordHash))) {
    await recordSignInFailure(user.email, ip);
    return "wrong-current-password";
  }
  await clearSignInFailures(user.email, ip);
  const passwordHash = await newPasswordHash(options.next, user.email);
  await replacePassword(options.userId, passwordHash, "user.password_changed", options.actor, user.passwordHash);
  return "changed";
}
