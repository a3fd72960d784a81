"use server";

import { headers } from "next/headers";
import { webActor } from "@/lib/audit/audit-log";
import { currentUser } from "@/lib/auth/session";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { PASSWORD_MAX_LENGTH, PasswordPolicyError } from "@/lib/users/password-policy";
import { changePassword } from "@/lib/users/change-password";

export type ChangePasswordState = { ok: true; email: string } | { ok: false; error: string } | null;

/** Changes the signed-in user's password; every session of theirs ends (the form signs this one in again). */
export async function changePasswordAction(_previous: ChangePasswordState, form: FormData): Promise<ChangePasswordState> {
  const list = await headers();
  if (originProblem(list)) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const user = await currentUser();
  if (!user) return { ok: false, error: "Your session has ended; sign in again." };
  const [current, next, confirm] = ["current", "password", "confirm"].map((name) => form.get(name));
  if (typeof current !== "string" || typeof next !== "string" || current.length > PASSWORD_MAX_LENGTH)
    return { ok: false, error: "Fill in every field." };
  if (next !== confirm) return { ok: false, error: "The two new passwords do not match." };
  try {
    const result = await changePassword({ userId: user.id, current, next, actor: webActor(user.id, list) });
    if (result === "wrong-current-password") return { ok: false, error: "The current password is not right." };
    if (result === "no-user") return { ok: false, error: "Your session has ended; sign in again." };
    if (typeof result === "object") {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return { ok: false, error: `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
    }
    return { ok: true, email: user.email };
  } catch (error) {
    if (error instanceof PasswordPolicyError) return { ok: false, error: error.message };
    throw error;
  }
}
