import { buttonClass } from "./styles";

/**
 * A form's submit button, disabled while the form is being sent (and when `disabled`);
 * it shows `pendingLabel`, where there is one, meanwhile.
 */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  disabled = false,
  className = buttonClass("primary"),
}: {
  pending: boolean;
  label: string;
  pendingLabel?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button type="submit" disabled={pending || disabled} className={className}>
      {pending && pendingLabel ? pendingLabel : label}
    </button>
  );
}
