"use client";

import { deleteKeptDeliveryAction } from "@/app/t/[slug]/settings/connections/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";
import { ReplayButton } from "./replay-button";

/** A manager's controls of one kept delivery: replay it (when it waits for a mapping), delete it (then back to its connection). */
export function DeliveryControls({
  slug,
  connectionId,
  deliveryId,
  replayable,
}: {
  slug: string;
  connectionId: string;
  deliveryId: string;
  replayable: boolean;
}) {
  return (
    <div className="flex flex-wrap items-start gap-2">
      {replayable ? <ReplayButton slug={slug} deliveryId={deliveryId} label="Replay this delivery" /> : null}
      <ConfirmButton
        label="Delete this delivery"
        className={buttonClass("danger", "sm")}
        title="Delete this delivery?"
        description="Its kept body goes, and no lead can be made from it any more; the builder's next retry of it, if any, arrives as new. This cannot be undone."
        confirmLabel="Delete delivery"
        pendingLabel="Deleting…"
        action={() => deleteKeptDeliveryAction(slug, connectionId, deliveryId)}
      >
        Delete
      </ConfirmButton>
    </div>
  );
}
