"use client";

import { recordConsentAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { Field } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass, inputClass } from "@/components/ui/styles";

/** "Record consent": consent given another way (phone, paper), with a note of how; any member. */
export function RecordConsentButton({ slug, leadId }: { slug: string; leadId: string }) {
  const id = (name: string) => `record-consent-${name}`;
  return (
    <FormDialog
      triggerLabel="Record consent"
      trigger={{ text: "Record consent", className: buttonClass("secondary", "sm") }}
      title="Record consent"
      description="Consent the person gave another way, such as by phone or on paper. It is kept with your name and the time."
      submitLabel="Record"
      pendingLabel="Recording…"
      submit={(form) => recordConsentAction(slug, leadId, form)}
      notice={() => "Consent recorded."}
    >
      <Field id={id("status")} label="Consent">
        <select id={id("status")} name="status" defaultValue="given" className={`${inputClass} mt-1.5`}>
          <option value="given">Given</option>
          <option value="not_given">Not given</option>
        </select>
      </Field>
      <Field id={id("text")} label="What the person agreed to">
        <textarea id={id("text")} name="text" required rows={3} maxLength={2000} className={`${inputClass} mt-1.5`} />
      </Field>
      <Field id={id("purpose")} label="Purpose">
        <input
          id={id("purpose")}
          name="purpose"
          required
          maxLength={100}
          placeholder="Marketing emails"
          className={`${inputClass} mt-1.5`}
        />
      </Field>
      <Field id={id("note")} label="How it was given">
        <input
          id={id("note")}
          name="note"
          required
          maxLength={2000}
          placeholder="By phone, call of 2 December"
          className={`${inputClass} mt-1.5`}
        />
      </Field>
    </FormDialog>
  );
}
