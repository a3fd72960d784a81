import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "../env";
import { clientIp } from "../http/request-context";
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from "../rate-limit/sign-in-limits";
import { authenticateUser } from "../users/authenticate-user";

// Only next-auth wiring lives here: plain Node scripts cannot import the providers
// (STACK.md), so password checks stay in lib/users.

const THIRTY_DAYS = 30 * 24 * 60 * 60;

/** next-auth hands authorize() the request headers as a plain object. */
function headerEntries(headers: Record<string, unknown> | undefined): [string, string][] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) =>
    typeof value === "string" ? [[name, value] as [string, string]] : [],
  );
}

export const authOptions: NextAuthOptions = {
  secret: env().NEXTAUTH_SECRET,
  // JWT sessions: stateless and signed with NEXTAUTH_SECRET, so they survive restarts.
  // Roles are not in the token; every page and action reads them from the database.
  session: { strategy: "jwt", maxAge: THIRTY_DAYS },
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
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      return session;
    },
  },
};
