import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "../env";
import { clientIp } from "../http/request-context";
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from "../rate-limit/sign-in-limits";
import { authenticateUser } from "../users/authenticate-user";
import { endAllSessions } from "../users/user-changes";
import { checkSessionToken, issueSessionToken, SESSION_MAX_AGE_SECONDS, SESSION_RENEW_AFTER_SECONDS } from "./session-token";

// Only next-auth wiring lives here: plain Node scripts cannot import the providers
// (STACK.md), so password checks stay in lib/users.

/** next-auth hands authorize() the request headers as a plain object. */
function headerEntries(headers: Record<string, unknown> | undefined): [string, string][] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : []));
}

export const authOptions: NextAuthOptions = {
  secret: env().NEXTAUTH_SECRET,
  // JWT sessions signed with NEXTAUTH_SECRET, so they survive restarts, each checked
  // against the user's session version on every read (./session-token.ts). Roles are
  // not in the token; every page and action reads them from the database. next-auth
  // ignores updateAge for JWTs: proxy.ts renews the cookie, which makes the 12 h sliding.
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_RENEW_AFTER_SECONDS },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        const email = credentials?.email?.trim();
        const password = credentials?.password;
        if (!email || !password || email.length > 254 || password.length > 1_000) return null;
        const ip = clientIp(new Headers(headerEntries(req?.headers)));
        await assertSignInAllowed(email, ip);
        const user = await authenticateUser(email, password);
        await (user ? clearSignInFailures(email, ip) : recordSignInFailure(email, ip));
        return user;
      },
    }),
  ],
  callbacks: {
    // Runs on every getServerSession: one read by primary key.
    jwt({ token, user }) {
      return user ? issueSessionToken(token, user.id) : checkSessionToken(token);
    },
    session({ session, token }) {
      if (!token.sub) return { expires: session.expires };
      return { ...session, user: { id: token.sub, email: token.email, name: token.name } };
    },
  },
  events: {
    // Sign-out ends the session on the server too, so a copy of the cookie is worthless.
    async signOut({ token }) {
      if (typeof token?.sub === "string") await endAllSessions(token.sub);
    },
  },
};
