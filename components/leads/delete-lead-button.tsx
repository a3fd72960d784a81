"use client";

import { deleteLeadsAction } from "@/app/t/[slug]/leads/actions";
import { DeleteAndLeaveButton } from "@/components/ui/confirm-button";

/** Deletes one lead after a confirmation, then returns to the list it was opened from. */
export function DeleteLeadButton({ slug, leadId, backHref }: { slug: string; leadId: string; backHref: string }) {
  return (
    <DeleteAndLeaveButton
      label="Delete lead"
      title={`Delete ${leadId}?`}
      description="The lead is deleted for good. The audit log records its id, not its contents."
      confirmLabel="Delete lead"
      action={() => deleteLeadsAction(slug, [leadId])}
      leaveTo={backHref}
    >
      Delete lead
    </DeleteAndLeaveButton>
  );
}
