"use client";

import { resendConfirmationAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass } from "@/components/ui/styles";

/** "Resend confirmation" (owners and admins): the double opt-in email again, at most one a day per person. */
export function ResendConfirmationButton({ slug, leadId }: { slug: string; leadId: string }) {
  return (
    <FormDialog
      triggerLabel="Resend confirmation"
      trigger={{ text: "Resend confirmation", className: buttonClass("secondary", "sm") }}
      title="Resend the confirmation email"
      description="The person gets a new link to confirm their consent. At most one confirmation email goes to a person in 24 hours, whoever asks: if one was sent less than a day ago, nothing is sent and you are told when you can resend."
      submitLabel="Resend"
      pendingLabel="Sending…"
      submit={() => resendConfirmationAction(slug, leadId)}
      notice={() => "Confirmation email queued."}
    >
      {null}
    </FormDialog>
  );
}
