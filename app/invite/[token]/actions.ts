"use server";

import { headers } from "next/headers";
import { currentUser } from "@/lib/auth/session";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { clientIp } from "@/lib/http/request-context";
import { acceptInviteAsUser, acceptInviteWithNewAccount, type AcceptInviteResult } from "@/lib/teams/accept-invite";

export type AcceptState = { ok: true; email: string; teamSlug: string } | { ok: false; error: string; signIn?: boolean } | null;

const INVALID_LINK = "This invite link is invalid, expired or already used.";

function toState(result: AcceptInviteResult): AcceptState {
  if (result.ok) return result;
  switch (result.reason) {
    case "weak-password":
      return { ok: false, error: result.problem };
    case "account-exists":
      return { ok: false, error: "This address already has an account: sign in to accept the invite.", signIn: true };
    case "throttled": {
      const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
      return { ok: false, error: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
    }
    case "other-address":
      return { ok: false, error: `This invite is for ${result.inviteEmail}; sign in with that address to accept it.` };
    default:
      return { ok: false, error: INVALID_LINK };
  }
}

function readToken(form: FormData): string | null {
  const token = form.get("token");
  return typeof token === "string" && token.length <= 100 ? token : null;
}

/** A new invitee creates an account. The token is the credential: there is no session yet. */
export async function createAccountAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const list = await headers();
  if (originProblem(list)) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const token = readToken(form);
  const password = form.get("password");
  if (!token || typeof password !== "string") return { ok: false, error: INVALID_LINK };
  if (password !== form.get("confirm")) return { ok: false, error: "The two passwords do not match." };
  const name = form.get("name");
  return toState(
    await acceptInviteWithNewAccount({
      token,
      password,
      name: typeof name === "string" ? name.slice(0, 100) : undefined,
      ip: clientIp(list),
    }),
  );
}

/** The signed-in user accepts an invite made out to their address. */
export async function acceptAsSignedInUserAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  if (originProblem(await headers())) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const user = await currentUser();
  if (!user) return { ok: false, error: "Your session has ended; sign in again.", signIn: true };
  const token = readToken(form);
  if (!token) return { ok: false, error: INVALID_LINK };
  return toState(await acceptInviteAsUser({ token, userId: user.id }));
}
