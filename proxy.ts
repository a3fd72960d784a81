import { NextResponse, type NextRequest } from "next/server";

// Sends a signed-out visitor of a team page to sign-in with the page they asked for as
// callbackUrl. Only a convenience: the team layout can't know the page's path, and the
// real guard is still the session and role check of every page and server action
// (lib/auth/require-team-role.ts), which also catches expired or forged cookies.

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest) {
  if (request.method !== "GET") return NextResponse.next();
  const hasSession = request.cookies.getAll().some((cookie) => SESSION_COOKIES.some((name) => cookie.name.startsWith(name)));
  if (hasSession) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = { matcher: "/t/:path*" };
