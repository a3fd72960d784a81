"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useActionState, useEffect, useRef } from "react";
import { acceptAsSignedInUserAction, createAccountAction, type AcceptState } from "@/app/invite/[token]/actions";
import { NewPasswordFields } from "@/components/account/new-password-fields";
import { signInToAccept } from "@/components/auth/invite-links";
import { buttonClass, inputClass, labelClass, linkClass } from "@/components/ui/styles";

function Problem({ state, token }: { state: AcceptState; token: string }) {
  if (!state || state.ok) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {state.error}{" "}
      {state.signIn ? (
        <Link href={signInToAccept(token)} className={linkClass}>
          Sign in
        </Link>
      ) : null}
    </p>
  );
}

/** Signed out: create an account for the invited address. Shown alike whether or not it has one. */
export function CreateAccountForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState(createAccountAction, null);
  // Kept at submit time: React resets the form once the action has run.
  const password = useRef("");

  // Created: sign in with the password just chosen (the ordinary, throttled sign-in), then open the team.
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
      <div>
        <label htmlFor="name" className={labelClass}>
          Your name <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input id="name" name="name" maxLength={100} autoComplete="name" className={`${inputClass} mt-1.5`} />
      </div>
      <NewPasswordFields labels={{ password: "Choose a password", confirm: "Confirm password" }} />
      <Problem state={state} token={token} />
      <button type="submit" disabled={pending || state?.ok} className={`${buttonClass("primary")} w-full`}>
        {state?.ok || pending ? "Joining…" : "Create account and join"}
      </button>
      <p className="text-sm text-slate-600">
        Already have an account with this address?{" "}
        <Link href={signInToAccept(token)} className={linkClass}>
          Sign in to accept
        </Link>
      </p>
    </form>
  );
}

/** Signed in with the invited address: one button. */
export function AcceptAsSignedInForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(acceptAsSignedInUserAction, null);
  useEffect(() => {
    // A full load, so the layout reads the new membership from the server afresh.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    if (state?.ok) window.location.assign(`/t/${state.teamSlug}/leads`);
  }, [state]);
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <Problem state={state} token={token} />
      <button type="submit" disabled={pending || state?.ok} className={`${buttonClass("primary")} w-full`}>
        {state?.ok || pending ? "Joining…" : "Join team"}
      </button>
    </form>
  );
}
