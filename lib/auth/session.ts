import { getServerSession } from "next-auth";
import { db } from "../db/client";
import { authOptions } from "./auth-options";

export type SessionUser = { id: string; email: string; name: string | null };

/**
 * The signed-in user, read from the session cookie and confirmed against the database
 * (a deleted user's still-valid JWT signs nobody in). Null when signed out.
 */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const id = session?.user?.id;
  if (!id) return null;
  return db().user.findUnique({ where: { id }, select: { id: true, email: true, name: true } });
}
