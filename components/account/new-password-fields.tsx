import { inputClass, labelClass } from "@/components/ui/styles";
import { PASSWORD_MIN_LENGTH } from "@/lib/users/password-policy";

/** "New password" and "Confirm new password", named password and confirm. */
export function NewPasswordFields() {
  return (
    <>
      <div>
        <label htmlFor="password" className={labelClass}>
          New password
        </label>
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
      </div>
      <div>
        <label htmlFor="confirm" className={labelClass}>
          Confirm new password
        </label>
        <input id="confirm" name="confirm" type="password" required autoComplete="new-password" className={`${inputClass} mt-1.5`} />
      </div>
    </>
  );
}
