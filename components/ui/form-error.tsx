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
