"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { isSessionCookie } from "@/lib/auth/session-renewal";
import { currentUser } from "@/lib/auth/session";
import { endAllSessions } from "@/lib/users/user-changes";

/**
 * Sign-out as a plain form post, so the button works before the page's scripts have loaded
 * (next-auth's client signOut needs them). Like next-auth's own sign-out event, it ends the
 * user's sessions on the server (a saved copy of the cookie signs nobody in), then clears
 * the cookie and goes to `callbackUrl` (same-site only).
 */
export async function signOutAction(form: FormData): Promise<void> {
  // No Origin check of our own beyond Next's: a sign-out is what the user asked for (a
  // cross-site post carries no SameSite=Lax session cookie, so it signs nobody out), and
  // a redirect to /signin that left the session alive would mislead.
  const user = await currentUser();
  if (user) await endAllSessions(user.id);
  const jar = await cookies();
  for (const { name } of jar.getAll()) {
    if (isSessionCookie(name))
      jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: name.startsWith("__Secure-") });
  }
  const to = safeCallbackUrl(form.get("callbackUrl"));
  redirect(to === "/" ? "/signin" : to);
}
