"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";

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
      <div>
        <label htmlFor="email" className={labelClass}>
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="email" required defaultValue={email} className={`${inputClass} mt-1.5`} />
      </div>
      <div>
        <label htmlFor="password" className={labelClass}>
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={`${inputClass} mt-1.5`} />
      </div>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={`${buttonClass("primary")} w-full`}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
