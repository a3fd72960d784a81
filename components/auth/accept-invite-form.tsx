"use client";

import { signIn } from "next-auth/react";
import { useActionState, useEffect, useRef } from "react";
import { acceptInviteAction } from "@/app/invite/[token]/actions";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";
import { PASSWORD_MIN_LENGTH } from "@/lib/users/password-policy";

export function AcceptInviteForm({ token, email, hasAccount }: { token: string; email: string; hasAccount: boolean }) {
  const [state, action, pending] = useActionState(acceptInviteAction, null);
  // Kept at submit time: React resets the form once the action has run.
  const password = useRef("");

  // Accepted: sign in with the password just entered, then open the team.
  useEffect(() => {
    if (!state?.ok) return;
    void signIn("credentials", { email, password: password.current, redirect: false }).then((result) => {
      window.location.assign(result?.ok ? `/t/${state.teamSlug}/leads` : `/signin?callbackUrl=/t/${state.teamSlug}/leads`);
    });
  }, [state, email]);

  return (
    <form
      action={action}
      onSubmit={(event) => {
        password.current = String(new FormData(event.currentTarget).get("password") ?? "");
      }}
      className="space-y-4"
    >
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers store the new credentials under the right account. */}
      <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
      {hasAccount ? (
        <p className="text-sm text-slate-600">You already have an account. Confirm your password to join.</p>
      ) : (
        <div>
          <label htmlFor="name" className={labelClass}>
            Your name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="name" name="name" maxLength={100} autoComplete="name" className={`${inputClass} mt-1.5`} />
        </div>
      )}
      <div>
        <label htmlFor="password" className={labelClass}>
          {hasAccount ? "Password" : "Choose a password"}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={hasAccount ? undefined : PASSWORD_MIN_LENGTH}
          autoComplete={hasAccount ? "current-password" : "new-password"}
          aria-describedby={hasAccount ? undefined : "password-help"}
          className={`${inputClass} mt-1.5`}
        />
        {hasAccount ? null : (
          <p id="password-help" className="mt-1.5 text-xs text-slate-500">
            At least {PASSWORD_MIN_LENGTH} characters; a few unrelated words work well.
          </p>
        )}
      </div>
      {hasAccount ? null : (
        <div>
          <label htmlFor="confirm" className={labelClass}>
            Confirm password
          </label>
          <input id="confirm" name="confirm" type="password" required autoComplete="new-password" className={`${inputClass} mt-1.5`} />
        </div>
      )}
      {state && !state.ok ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      <button type="submit" disabled={pending || state?.ok} className={`${buttonClass("primary")} w-full`}>
        {state?.ok ? "Joining…" : pending ? "Joining…" : "Join team"}
      </button>
    </form>
  );
}
