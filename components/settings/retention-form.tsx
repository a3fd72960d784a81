"use client";

import { useActionState } from "react";
import { updateRetentionAction } from "@/app/t/[slug]/settings/general/actions";
import { Field } from "@/components/ui/field";
import { cardClass, inputClass } from "@/components/ui/styles";
import { SaveRow } from "./form-message";

/** The team's lead retention (docs/leads.md "Retention"). */
export function RetentionForm(props: { slug: string; retentionDays: number | null; canEdit: boolean }) {
  const [state, action, pending] = useActionState(updateRetentionAction, null);
  return (
    <form action={action} aria-labelledby="retention-heading" className={`${cardClass} mt-6 max-w-2xl space-y-4 p-6`}>
      <h2 id="retention-heading" className="text-sm font-semibold text-slate-900">
        Lead retention
      </h2>
      <input type="hidden" name="slug" value={props.slug} />
      <Field id="retention-days" label="Delete leads older than (days)">
        <input
          id="retention-days"
          name="retentionDays"
          type="number"
          min={1}
          max={36500}
          step={1}
          defaultValue={props.retentionDays ?? ""}
          disabled={!props.canEdit}
          aria-describedby="retention-help"
          className={`${inputClass} mt-1.5 max-w-40`}
        />
        <p id="retention-help" className="mt-1.5 text-xs text-slate-500">
          Empty keeps leads forever. Checked every hour; each run that deletes leads is one entry in the audit log.
        </p>
      </Field>
      {props.canEdit ? (
        <SaveRow pending={pending} label="Save retention" pendingLabel="Saving…" state={state} success="Retention saved." />
      ) : null}
    </form>
  );
}
