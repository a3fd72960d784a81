import type { ActionResult } from "@/lib/auth/require-team-role";

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
