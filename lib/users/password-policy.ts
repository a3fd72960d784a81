import { COMMON_PASSWORDS } from "./common-passwords";

// The one password policy (docs/security.md "Passwords"), applied on the server by every
// path that sets a password (lib/users/password.ts newPasswordHash): NIST SP
// 800-63B-4 for a password that is the only factor. At least 15 characters, at most 256
// (well over the 64 NIST asks us to accept; Argon2id reads them all), no composition
// rules, and never a commonly used or expected one.

export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 256;

const common = new Set(COMMON_PASSWORDS.map((entry) => entry.toLowerCase()));

/** Characters as a person counts them (code points, so an emoji is one). */
const characters = (password: string) => [...password.normalize("NFC")];

/** Why a new password is not acceptable, or null when it is. `email` adds the account's own address to the list. */
export function passwordProblem(password: string, context: { email?: string } = {}): string | null {
  const chars = characters(password);
  if (chars.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (chars.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const folded = password.normalize("NFC").toLowerCase();
  const email = context.email?.trim().toLowerCase();
  if (new Set(chars).size < 4 || common.has(folded) || (email && (folded === email || folded === email.split("@")[0]))) {
    return "This password is too common or easy to guess; choose another.";
  }
  return null;
}

export class PasswordPolicyError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = "PasswordPolicyError";
  }
}

/** Throws PasswordPolicyError when the password may not be set. */
export function assertPasswordAcceptable(password: string, context: { email?: string } = {}): void {
  const problem = passwordProblem(password, context);
  if (problem) throw new PasswordPolicyError(problem);
}
