"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";

/**
 * A form sent to a server action in a transition: `onSubmit` reads the form's data and calls
 * `submit` with it; `pending` while it runs. A refusal becomes `error`, and so does a call
 * that fails outright (network down, server error), as `unreachable`; a success clears
 * `error` and calls `onDone` with the result and the data sent.
 */
export function useFormAction<T extends object>(
  submit: (form: FormData) => Promise<ActionResult<T>>,
  { unreachable, onDone }: { unreachable: string; onDone?: (result: T, form: FormData) => void },
) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await submit(form).catch((): ActionResult<T> => ({ ok: false, error: unreachable }));
      setError(result.ok ? null : result.error);
      if (result.ok) onDone?.(result, form);
    });
  }

  return { pending, error, setError, onSubmit };
}
