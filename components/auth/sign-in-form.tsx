"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";

// lib/rate-limit/sign-in-limits.ts: "SignInThrottled:<seconds>".
const THROTTLED = /^SignInThrottled:(\d+)$/;

function signInError(error: string | null | undefined): string {
  if (error === "CredentialsSignin") return "Incorrect email or password.";
  const throttled = error ? THROTTLED.exec(error) : null;
  if (throttled) {
    const minutes = Math.max(1, Math.ceil(Number(throttled[1]) / 60));
    return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  return "Sign-in failed; try again.";
}

export function SignInForm({ callbackUrl, email = "" }: { callbackUrl: string; email?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    if (!result || result.error) {
      setPending(false);
      setError(signInError(result?.error));
      return;
    }
    // A full load, so every server component reads the new session cookie.
    window.location.assign(callbackUrl);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field id="email" label="Email">
        <input id="email" name="email" type="email" autoComplete="email" required defaultValue={email} className={`${inputClass} mt-1.5`} />
      </Field>
      <Field id="password" label="Password">
        <input id="password" name="password" type="password" autoComplete="current-password" required className={`${inputClass} mt-1.5`} />
      </Field>
      <FormError error={error} />
      <SubmitButton pending={pending} label="Sign in" pendingLabel="Signing in…" className={`${buttonClass("primary")} w-full`} />
    </form>
  );
}
