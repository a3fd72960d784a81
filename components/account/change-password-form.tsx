"use client";

import { signIn } from "next-auth/react";
import { useActionState, useEffect, useRef, useState } from "react";
import { changePasswordAction } from "@/app/account/actions";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { NewPasswordFields } from "./new-password-fields";

/**
 * Current password and a new one. The change ends every session of the user, this one
 * included; this browser then signs in again with the new password, so only the others
 * are signed out.
 */
export function ChangePasswordForm() {
  const [state, action, pending] = useActionState(changePasswordAction, null);
  // Kept at submit time: React resets the form once the action has run.
  const next = useRef("");
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!state?.ok) return;
    void signIn("credentials", { email: state.email, password: next.current, redirect: false }).then((result) =>
      setDone(
        result?.ok
          ? "Password changed. Every other session of yours has been signed out."
          : "Password changed. Sign in again with the new password.",
      ),
    );
  }, [state]);

  return (
    <form
      action={action}
      onSubmit={(event) => {
        next.current = String(new FormData(event.currentTarget).get("password") ?? "");
        setDone(null);
      }}
      className="space-y-4"
    >
      <Field id="current" label="Current password">
        <input id="current" name="current" type="password" required autoComplete="current-password" className={`${inputClass} mt-1.5`} />
      </Field>
      <NewPasswordFields />
      <FormError error={state && !state.ok ? state.error : null} />
      <p role="status" className={done ? "rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800" : "sr-only"}>
        {done}
      </p>
      <SubmitButton pending={pending} label="Change password" pendingLabel="Changing…" className={`${buttonClass("primary")} w-full`} />
    </form>
  );
}
