import type { ActionResult } from "@/lib/auth/require-team-role";
import { SubmitButton } from "@/components/ui/submit-button";

/** The outcome of a form's last submission, announced to screen readers. */
export function FormMessage({ state, success }: { state: ActionResult | null; success: string }) {
  if (!state) return <span role="status" className="sr-only" />;
  return state.ok ? (
    <span role="status" className="text-sm text-emerald-700">
      {success}
    </span>
  ) : (
    <span role="alert" className="text-sm text-red-700">
      {state.error}
    </span>
  );
}

/** A settings form's last row: its primary submit button, and beside it the outcome of the last submission. */
export function SaveRow({
  pending,
  label,
  pendingLabel,
  state,
  success,
  className = "flex items-center gap-3",
}: {
  pending: boolean;
  label: string;
  pendingLabel?: string;
  state: ActionResult | null;
  success: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <SubmitButton pending={pending} label={label} pendingLabel={pendingLabel} />
      <FormMessage state={state} success={success} />
    </div>
  );
}
