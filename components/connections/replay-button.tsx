"use client";

import { useRouter } from "next/navigation";
import { replayDeliveryAction } from "@/app/t/[slug]/settings/connections/actions";
import { buttonClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";

/** Makes the lead of a delivery kept as "needs mapping", by the mapping as it is now. */
export function ReplayButton({ slug, deliveryId, label }: { slug: string; deliveryId: string; label: string }) {
  const router = useRouter();
  const { pending, error, run } = useActionRunner();
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        className={buttonClass("secondary", "sm")}
        onClick={() =>
          run(
            () => replayDeliveryAction(slug, deliveryId),
            (result) => result.ok && router.refresh(),
          )
        }
      >
        {pending ? "Replaying…" : "Replay"}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
