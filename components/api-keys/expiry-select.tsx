"use client";

import { EXPIRY_LABEL, ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Field } from "@/components/ui/field";
import { FormDialog, type FormDialogProps } from "@/components/ui/form-dialog";
import { inputClass } from "@/components/ui/styles";

/** The select named `expiry`: one option per choice (first "keep as it is", where there is `keep`). */
export function ExpirySelect({
  id,
  choices,
  keep,
  initial,
}: {
  id: string;
  choices: readonly (keyof typeof EXPIRY_LABEL)[];
  /** The label of a first "keep as it is" option. */
  keep?: string;
  initial?: keyof typeof EXPIRY_LABEL;
}) {
  return (
    <select id={id} name="expiry" defaultValue={keep ? "keep" : (initial ?? choices[0])} className={`${inputClass} mt-1.5`}>
      {keep ? <option value="keep">{keep}</option> : null}
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {EXPIRY_LABEL[choice]}
        </option>
      ))}
    </select>
  );
}

/**
 * The dialog that rolls a credential (an API key, a webhook's signing secret, a connection's
 * URL): a FormDialog whose one field asks until when the old one works (`expiry`: the select's
 * id, label and first choice, of ROLL_CHOICES); `submit` gets the choice.
 */
export function RollDialog<T extends object>({
  expiry,
  submit,
  ...dialog
}: Omit<FormDialogProps<T>, "submit" | "children"> & {
  expiry: { id: string; label: string; initial: (typeof ROLL_CHOICES)[number] };
  submit: (expiry: string) => Promise<ActionResult<T>>;
}) {
  return (
    <FormDialog {...dialog} submit={(form) => submit(String(form.get("expiry") ?? ""))}>
      <Field id={expiry.id} label={expiry.label}>
        <ExpirySelect id={expiry.id} choices={ROLL_CHOICES} initial={expiry.initial} />
      </Field>
    </FormDialog>
  );
}
