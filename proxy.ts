import { NextResponse, type NextRequest } from "next/server";
import { hasSessionCookie, renewSessionCookie } from "./lib/auth/session-renewal";
import { newNonce, pageContentSecurityPolicy } from "./lib/http/content-security-policy";
import { env } from "./lib/env";

// Every page request passes here (not the API, static files or prefetches: see matcher).
// - The page's Content-Security-Policy with a fresh nonce, on the request (Next reads
//   the nonce from it while rendering and tags its scripts) and on the response.
// - A sliding session: a session cookie older than an hour is renewed.
// - A signed-out visitor of a team page goes to sign-in with that page as callbackUrl.
//   Only a convenience: the real guard is the session and role check of every page and
//   server action (lib/auth/require-team-role.ts), which also catches expired, forged
//   or ended sessions.

export async function proxy(request: NextRequest) {
  const isTeamPage = request.nextUrl.pathname.startsWith("/t/");
  if (isTeamPage && request.method === "GET" && !hasSessionCookie(request)) {
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.redirect(signIn);
  }

  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  await renewSessionCookie(request, response, env().NEXTAUTH_SECRET);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static/|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
