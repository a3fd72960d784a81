import { findUserByEmail, type User } from "./user-store";
import { hashPassword, verifyPassword } from "./password";

// Compared against when the email is unknown, so a miss costs one bcrypt round like a hit.
let dummyHash: Promise<string> | undefined;

/** The user with this email and password, or null. Kept apart from the next-auth options (see STACK.md). */
export async function authenticateUser(email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(email);
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(password, await dummyHash);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
