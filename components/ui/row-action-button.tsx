"use client";

import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { buttonClass } from "./styles";
import { useActionRunner } from "./use-action-runner";

/**
 * A small button in a log's row (Resend, Replay) that runs `action` and, when it succeeds,
 * refreshes the page; it shows `pendingText` meanwhile, and a refusal beside it as an alert.
 * `label` names it where its text alone would not tell the rows apart.
 */
export function RowActionButton({
  text,
  pendingText,
  label,
  action,
}: {
  text: string;
  pendingText: string;
  label?: string;
  action: () => Promise<ActionResult>;
}) {
  const router = useRouter();
  const { pending, error, run } = useActionRunner();
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        className={buttonClass("secondary", "sm")}
        onClick={() => run(action, (result) => result.ok && router.refresh())}
      >
        {pending ? pendingText : text}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </>
  );
}
