"use client";

import { replayDeliveryAction } from "@/app/t/[slug]/settings/connections/actions";
import { RowActionButton } from "@/components/ui/row-action-button";

/** Makes the lead of a delivery kept as "needs mapping", by the mapping as it is now. */
export function ReplayButton({ slug, deliveryId, label }: { slug: string; deliveryId: string; label: string }) {
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <RowActionButton text="Replay" pendingText="Replaying…" label={label} action={() => replayDeliveryAction(slug, deliveryId)} />
    </span>
  );
}
