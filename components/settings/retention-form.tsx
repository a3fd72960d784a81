"use client";

import { useActionState } from "react";
import { updateRetentionAction } from "@/app/t/[slug]/settings/general/actions";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";
import { FormMessage } from "./form-message";

/** The team's lead retention (docs/leads.md "Retention"). */
export function RetentionForm(props: { slug: string; retentionDays: number | null; canEdit: boolean }) {
  const [state, action, pending] = useActionState(updateRetentionAction, null);
  return (
    <form action={action} aria-labelledby="retention-heading" className={`${cardClass} mt-6 max-w-2xl space-y-4 p-6`}>
      <h2 id="retention-heading" className="text-sm font-semibold text-slate-900">
        Lead retention
      </h2>
      <input type="hidden" name="slug" value={props.slug} />
      <div>
        <label htmlFor="retention-days" className={labelClass}>
          Delete leads older than (days)
        </label>
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
      </div>
      {props.canEdit ? (
        <div className="flex items-center gap-3">
          <button type="submit" disabled={pending} className={buttonClass("primary")}>
            {pending ? "Saving…" : "Save retention"}
          </button>
          <FormMessage state={state} success="Retention saved." />
        </div>
      ) : null}
    </form>
  );
}
