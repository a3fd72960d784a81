import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user?: DefaultSession["user"] & { id?: string };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The user's session version when the token was issued (lib/auth/session-token.ts). */
    sv?: number;
  }
}
