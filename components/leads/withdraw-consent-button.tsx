"use client";

import { withdrawConsentAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { Field } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass, inputClass } from "@/components/ui/styles";

/** "Withdraw consent": the person withdrew (by phone, by email, in person), with an optional note of how; any member. */
export function WithdrawConsentButton({ slug, leadId }: { slug: string; leadId: string }) {
  return (
    <FormDialog
      triggerLabel="Withdraw consent"
      trigger={{ text: "Withdraw consent", className: buttonClass("secondary", "sm") }}
      title="Withdraw consent"
      description="The person withdrew their consent. It is kept with your name and the time, and their address goes on the team's suppression list: a later submission or import of it is marked “Withdrew consent before” and gets no confirmation email."
      submitLabel="Withdraw"
      pendingLabel="Withdrawing…"
      submit={(form) => withdrawConsentAction(slug, leadId, form)}
      notice={() => "Consent withdrawn."}
    >
      <Field id="withdraw-consent-note" label="How it was withdrawn (optional)">
        <input
          id="withdraw-consent-note"
          name="note"
          maxLength={2000}
          placeholder="By phone, call of 2 December"
          className={`${inputClass} mt-1.5`}
        />
      </Field>
    </FormDialog>
  );
}
