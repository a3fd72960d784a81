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
