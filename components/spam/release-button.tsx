"use client";

import { releaseFromSpamAction } from "@/app/t/[slug]/leads/spam/actions";
import { RowActionButton } from "@/components/ui/row-action-button";

/** "Not spam": the submission goes into the lead list as if it had just arrived (docs/spam.md). */
export function ReleaseButton({ slug, id }: { slug: string; id: string }) {
  return (
    <RowActionButton
      text="Not spam"
      pendingText="Releasing…"
      label={`Not spam: release ${id}`}
      action={() => releaseFromSpamAction(slug, id)}
    />
  );
}
