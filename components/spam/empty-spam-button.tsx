"use client";

import { useRouter } from "next/navigation";
import { emptySpamAction } from "@/app/t/[slug]/leads/spam/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

/** "Empty spam" (owners and admins): every quarantined submission is deleted, after a confirmation. */
export function EmptySpamButton({ slug, count }: { slug: string; count: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Empty spam"
      className={buttonClass("danger", "sm")}
      title="Empty spam?"
      description={`Every submission in the quarantine (${count}) is deleted for good, on every page, not only those shown. None of them can be released afterwards. The audit log records the count.`}
      confirmLabel="Empty spam"
      pendingLabel="Deleting…"
      action={emptySpamAction.bind(null, slug)}
      onDone={() => router.refresh()}
    >
      Empty spam
    </ConfirmButton>
  );
}
