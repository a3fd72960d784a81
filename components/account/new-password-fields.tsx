import { Field } from "@/components/ui/field";
import { inputClass } from "@/components/ui/styles";
import { PASSWORD_MIN_LENGTH } from "@/lib/users/password-policy";

/**
 * A new password and its confirmation, named password and confirm ("New password" and
 * "Confirm new password" unless `labels` says otherwise, e.g. on an invite).
 */
export function NewPasswordFields({
  labels = { password: "New password", confirm: "Confirm new password" },
}: {
  labels?: { password: string; confirm: string };
}) {
  return (
    <>
      <Field id="password" label={labels.password}>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          autoComplete="new-password"
          aria-describedby="password-help"
          className={`${inputClass} mt-1.5`}
        />
        <p id="password-help" className="mt-1.5 text-xs text-slate-500">
          At least {PASSWORD_MIN_LENGTH} characters; a few unrelated words work well.
        </p>
      </Field>
      <Field id="confirm" label={labels.confirm}>
        <input id="confirm" name="confirm" type="password" required autoComplete="new-password" className={`${inputClass} mt-1.5`} />
      </Field>
    </>
  );
}
