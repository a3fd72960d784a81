"use client";

import Link from "next/link";
import { useActionState } from "react";
import { resetPasswordAction } from "@/app/reset/[token]/actions";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, linkClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { NewPasswordFields } from "./new-password-fields";

export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState(resetPasswordAction, null);
  if (state?.ok) {
    return (
      <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        Password set. Every session of {email} has been signed out.{" "}
        <Link href="/signin" className={linkClass}>
          Sign in
        </Link>{" "}
        with the new password.
      </p>
    );
  }
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
      <NewPasswordFields />
      <FormError error={state && !state.ok ? state.error : null} />
      <SubmitButton pending={pending} label="Set new password" pendingLabel="Setting…" className={`${buttonClass("primary")} w-full`} />
    </form>
  );
}
