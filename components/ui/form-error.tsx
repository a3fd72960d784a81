/**
 * A form's refusal, announced at once; nothing when there is none. By default a red box;
 * `className` styles it otherwise (plain red text in a dialog or beside a list).
 */
export function FormError({
  error,
  className = "rounded-md bg-red-50 px-3 py-2 text-sm text-red-700",
}: {
  error: string | null | undefined;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p role="alert" className={className}>
      {error}
    </p>
  );
}

/**
 * A control's last outcome: its refusal as a FormError (plain red text), then a status line
 * (always there, so a screen reader announces what is put in it) with `status`.
 */
export function ActionOutcome({ error, status }: { error: string | null; status: string | null }) {
  return (
    <>
      <FormError error={error} className="text-sm text-red-700" />
      <p role="status" className="text-sm text-slate-700">
        {status}
      </p>
    </>
  );
}
