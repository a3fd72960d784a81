import assert from "node:assert/strict";
import { test } from "node:test";
import { NextRequest, NextResponse } from "next/server";
import { decode, encode } from "next-auth/jwt";
import { renewSessionCookie } from "./session-renewal";
import { SESSION_MAX_AGE_SECONDS, SESSION_RENEW_AFTER_SECONDS } from "./session-token";

// The sliding session lifetime: proxy.ts renews a session cookie once its token is an
// hour old, for another SESSION_MAX_AGE_SECONDS; the token's claims (user, session
// version) are kept as they were.

const SECRET = "test-secret-for-session-renewal";
const HOUR = 60 * 60 * 1000;

async function pageRequest(cookieName = "next-auth.session-token") {
  const token = await encode({ token: { sub: "user-1", sv: 3, email: "a@example.test" }, secret: SECRET, maxAge: SESSION_MAX_AGE_SECONDS });
  return new NextRequest("http://127.0.0.1/t/demo/leads", { headers: { cookie: `${cookieName}=${token}` } });
}

test("a token younger than an hour is left alone", async () => {
  const response = NextResponse.next();
  await renewSessionCookie(await pageRequest(), response, SECRET, Date.now() + SESSION_RENEW_AFTER_SECONDS * 1000 - 60_000);
  assert.equal(response.cookies.get("next-auth.session-token"), undefined);
});

test("an older token is renewed for twelve hours with the same user and session version", async () => {
  const response = NextResponse.next();
  await renewSessionCookie(await pageRequest(), response, SECRET, Date.now() + 2 * HOUR);
  const cookie = response.cookies.get("next-auth.session-token");
  assert.ok(cookie, "renewed");
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, "lax");
  assert.equal(cookie.path, "/");
  assert.equal(cookie.maxAge, SESSION_MAX_AGE_SECONDS);
  assert.equal(SESSION_MAX_AGE_SECONDS, 12 * 60 * 60);
  const token = await decode({ token: cookie.value, secret: SECRET });
  assert.equal(token?.sub, "user-1");
  assert.equal(token?.sv, 3);
});

test("the __Secure- cookie of an https deployment stays Secure", async () => {
  const response = NextResponse.next();
  await renewSessionCookie(await pageRequest("__Secure-next-auth.session-token"), response, SECRET, Date.now() + 2 * HOUR);
  assert.equal(response.cookies.get("__Secure-next-auth.session-token")?.secure, true);
});

test("a token it cannot decrypt (forged, or another secret's) is never renewed", async () => {
  for (const value of ["not-a-jwt", await encode({ token: { sub: "x" }, secret: "another secret" })]) {
    const response = NextResponse.next();
    const request = new NextRequest("http://127.0.0.1/", { headers: { cookie: `next-auth.session-token=${value}` } });
    await renewSessionCookie(request, response, SECRET, Date.now() + 2 * HOUR);
    assert.equal(response.cookies.get("next-auth.session-token"), undefined);
  }
});
