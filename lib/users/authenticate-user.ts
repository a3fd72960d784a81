import { findUserByEmail, upgradePasswordHash, type User } from "./user-store";
import { hashPassword, needsRehash, verifyPassword } from "./password";

// Compared against when the email is unknown, so a miss costs one hash like a hit.
let dummyHash: Promise<string> | undefined;

/**
 * The user with this email and password, or null. Kept apart from the next-auth options
 * (see STACK.md). A correct password stored under an older scheme (bcrypt) is rehashed
 * with Argon2id now, the one moment the server holds the plain password.
 */
export async function authenticateUser(email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(email);
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(password, await dummyHash);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  if (needsRehash(user.passwordHash)) {
    await upgradePasswordHash({ userId: user.id, from: user.passwordHash, to: await hashPassword(password) });
  }
  return { id: user.id, email: user.email, name: user.name };
}
