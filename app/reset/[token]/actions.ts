"use server";

import { headers } from "next/headers";
import { clientIp } from "@/lib/http/request-context";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { PasswordPolicyError } from "@/lib/users/password-policy";
import { resetPassword } from "@/lib/users/password-reset-changes";

export type ResetState = { ok: true } | { ok: false; error: string } | null;

/** Sets a new password through a one-time link. The token is the credential: there is no session. */
export async function resetPasswordAction(_previous: ResetState, form: FormData): Promise<ResetState> {
  const list = await headers();
  if (originProblem(list)) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const [token, password, confirm] = ["token", "password", "confirm"].map((name) => form.get(name));
  if (typeof token !== "string" || typeof password !== "string")
    return { ok: false, error: "This link is invalid, has expired or was already used." };
  if (password !== confirm) return { ok: false, error: "The two new passwords do not match." };
  try {
    return (await resetPassword({ token, password, ip: clientIp(list) }))
      ? { ok: true }
      : { ok: false, error: "This link is invalid, has expired or was already used. Ask the operator for a new one." };
  } catch (error) {
    if (error instanceof PasswordPolicyError) return { ok: false, error: error.message };
    throw error;
  }
}
