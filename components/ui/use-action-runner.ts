"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";

/**
 * Runs a control's server actions in a transition: `pending` while one runs, `error` the
 * last one's refusal (cleared when one succeeds, or by `setError(null)`). `then` gets each
 * result once it is in.
 */
export function useActionRunner() {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  function run<T extends object>(action: () => Promise<ActionResult<T>>, then?: (result: ActionResult<T>) => void) {
    startTransition(async () => {
      const result = await action();
      setError(result.ok ? null : result.error);
      then?.(result);
    });
  }
  return { pending, error, setError, run };
}
