import { hash, verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { assertPasswordAcceptable } from "./password-policy";

// Kept apart from the next-auth options so plain Node scripts (seed, CLI) can use it.
// New hashes are Argon2id (docs/security.md "Passwords"): unlike bcrypt it reads the whole
// password, so the policy's 256 characters are all checked. Hashes made before are bcrypt
// ("$2…"); they still verify, and a successful sign-in replaces them (needsRehash). A
// password someone chooses is hashed through newPasswordHash, which applies the policy.

// OWASP's first Argon2id configuration: 19 MiB, 2 passes, 1 lane (the library's defaults,
// and Argon2id is its default algorithm: its const enum cannot be imported here).
const ARGON2ID = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2ID.memoryCost},t=${ARGON2ID.timeCost},p=${ARGON2ID.parallelism}$`;

const isBcrypt = (stored: string) => /^\$2[aby]\$/.test(stored);

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/**
 * The hash to store for a password someone chose: every path that sets a password comes
 * through here, so the policy is always the server's (throws PasswordPolicyError).
 */
export async function newPasswordHash(password: string, email: string): Promise<string> {
  assertPasswordAcceptable(password, { email });
  return hashPassword(password);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (isBcrypt(stored)) return bcrypt.compare(password, stored);
  if (!stored.startsWith("$argon2")) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a hash is not Argon2id with today's parameters: replace it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}
