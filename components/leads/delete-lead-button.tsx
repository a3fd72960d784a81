"use client";

import { useRouter } from "next/navigation";
import { deleteLeadsAction } from "@/app/t/[slug]/leads/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

/** Deletes one lead after a confirmation, then returns to the list it was opened from. */
export function DeleteLeadButton({ slug, leadId, backHref }: { slug: string; leadId: string; backHref: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete lead"
      className={buttonClass("danger")}
      title={`Delete ${leadId}?`}
      description="The lead is deleted for good. The audit log records its id, not its contents."
      confirmLabel="Delete lead"
      pendingLabel="Deleting…"
      action={async () => {
        const result = await deleteLeadsAction(slug, [leadId]);
        if (result.ok) router.push(backHref);
        return result;
      }}
    >
      Delete lead
    </ConfirmButton>
  );
}
