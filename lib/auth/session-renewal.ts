import type { NextRequest, NextResponse } from "next/server";
import { decode, encode } from "next-auth/jwt";
import { SESSION_MAX_AGE_SECONDS, SESSION_RENEW_AFTER_SECONDS } from "./session-token";

// Makes the session lifetime sliding. next-auth re-issues a JWT cookie only when the
// browser calls /api/auth/session, which this app's server-rendered pages never do, so
// the proxy renews it: a page request with a session token older than an hour gets a
// new one valid for SESSION_MAX_AGE_SECONDS. Whether the session is still current (its
// version) is checked by every page and action, not here; a renewed copy of an ended
// session stays ended.

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

/** Whether a cookie is (a chunk of) next-auth's session cookie, on http or https. */
export function isSessionCookie(name: string): boolean {
  return SESSION_COOKIES.some((prefix) => name.startsWith(prefix));
}

export function hasSessionCookie(request: NextRequest): boolean {
  return request.cookies.getAll().some((cookie) => isSessionCookie(cookie.name));
}

/** Sets a renewed session cookie on the response when the request's token is due for it. */
export async function renewSessionCookie(
  request: NextRequest,
  response: NextResponse,
  secret: string | undefined,
  now = Date.now(),
): Promise<void> {
  if (!secret) return;
  // A token too large for one cookie is split into chunks (name.0, name.1): left to next-auth.
  const cookie = SESSION_COOKIES.map((name) => request.cookies.get(name)).find((c) => c !== undefined);
  if (!cookie) return;
  const token = await decode({ token: cookie.value, secret }).catch(() => null);
  if (!token || typeof token.iat !== "number") return;
  if (now / 1000 - token.iat < SESSION_RENEW_AFTER_SECONDS) return;
  const renewed = await encode({ token, secret, maxAge: SESSION_MAX_AGE_SECONDS });
  response.cookies.set(cookie.name, renewed, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: cookie.name.startsWith("__Secure-"),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}
