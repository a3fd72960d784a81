import { getServerSession } from "next-auth";
import { authOptions } from "./auth-options";

export type SessionUser = { id: string; email: string; name: string | null };

/**
 * The signed-in user, read from the session cookie and confirmed against the database by
 * the jwt callback (./session-token.ts): a deleted user's or an ended session's
 * still-signed JWT signs nobody in. Null when signed out.
 */
export async function currentUser(): Promise<SessionUser | null> {
  const user = (await getServerSession(authOptions))?.user;
  if (!user?.id || typeof user.email !== "string") return null;
  return { id: user.id, email: user.email, name: user.name ?? null };
}
