"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useActionState, useEffect, useRef } from "react";
import { acceptAsSignedInUserAction, createAccountAction, type AcceptState } from "@/app/invite/[token]/actions";
import { NewPasswordFields } from "@/components/account/new-password-fields";
import { signInToAccept } from "@/components/auth/invite-links";
import { Field } from "@/components/ui/field";
import { buttonClass, inputClass, linkClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";

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

/** A refusal (with "Sign in" where signing in is the way), then the submit button: "Joining…" from the submit until the team opens. */
function Outcome({ state, token, pending, label }: { state: AcceptState; token: string; pending: boolean; label: string }) {
  return (
    <>
      <Problem state={state} token={token} />
      <SubmitButton
        pending={pending || Boolean(state?.ok)}
        label={label}
        pendingLabel="Joining…"
        className={`${buttonClass("primary")} w-full`}
      />
    </>
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
      <Field id="name" label="Your name" optional>
        <input id="name" name="name" maxLength={100} autoComplete="name" className={`${inputClass} mt-1.5`} />
      </Field>
      <NewPasswordFields labels={{ password: "Choose a password", confirm: "Confirm password" }} />
      <Outcome state={state} token={token} pending={pending} label="Create account and join" />
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
      <Outcome state={state} token={token} pending={pending} label="Join team" />
    </form>
  );
}
