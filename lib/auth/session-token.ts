import type { JWT } from "next-auth/jwt";
import { findSessionUser } from "../users/user-store";

// The server-side half of a session (docs/security.md "Sessions"). A next-auth JWT is signed and
// self-contained, so on its own it stays valid until it expires, whoever holds it. Each
// token therefore carries the user's session version from sign-in (`sv`), and every
// request that reads the session checks it against the database: sign-out, a password
// change and the operator's end-sessions command increment the version
// (lib/users/user-changes.ts endAllSessions), and older tokens then sign nobody in.

/** Sessions last 12 hours from the last renewal; proxy.ts renews a token once it is an hour old. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;
export const SESSION_RENEW_AFTER_SECONDS = 60 * 60;

/** A token for a fresh sign-in: the user's id and current session version. */
export async function issueSessionToken(token: JWT, userId: string): Promise<JWT> {
  const user = await findSessionUser(userId);
  if (!user) return {};
  return { ...token, sub: user.id, email: user.email, name: user.name, sv: user.sessionVersion };
}

/**
 * The token if its session is still current, refreshed with the user's email and name;
 * an empty token (signed out) when the user is gone or the session was ended. One read
 * by primary key, on every request that reads the session.
 */
export async function checkSessionToken(token: JWT): Promise<JWT> {
  if (typeof token.sub !== "string" || typeof token.sv !== "number") return {};
  const user = await findSessionUser(token.sub);
  if (!user || user.sessionVersion !== token.sv) return {};
  return { ...token, email: user.email, name: user.name };
}
