"use server";

import { headers } from "next/headers";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { acceptInvite } from "@/lib/teams/invite-store";

export type AcceptState = { ok: true; email: string; teamSlug: string } | { ok: false; error: string } | null;

/** The invite token is the credential here: the invitee has no session yet. */
export async function acceptInviteAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  if (originProblem(await headers())) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const token = form.get("token");
  const password = form.get("password");
  if (typeof token !== "string" || typeof password !== "string" || token.length > 100) return { ok: false, error: "This invite link is not valid." };
  // The form sends a confirmation only when it asks for a new password.
  const confirm = form.get("confirm");
  if (confirm !== null && password !== confirm) return { ok: false, error: "The two passwords do not match." };
  const name = form.get("name");
  const result = await acceptInvite({ token, password, name: typeof name === "string" ? name.slice(0, 100) : undefined });
  if (result.ok) return result;
  if (result.reason === "weak-password") return { ok: false, error: result.problem };
  return {
    ok: false,
    error: result.reason === "wrong-password" ? "That password is not correct for this account." : "This invite link is invalid, expired or already used.",
  };
}
