"use client";

import { useRouter } from "next/navigation";
import { eraseLeadsAction } from "@/app/t/[slug]/leads/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

/** Erases the listed leads of a person after a confirmation, then says how many went. */
export function EraseButton({ slug, who, ids }: { slug: string; who: string; ids: string[] }) {
  const router = useRouter();
  const count = ids.length === 1 ? "1 lead" : `${ids.length} leads`;
  return (
    <ConfirmButton
      label={`Erase ${count}`}
      className={buttonClass("danger")}
      title={`Erase ${count}?`}
      description="These leads, and the request-log entries and stored responses that name them, are deleted for good."
      confirmLabel={`Erase ${count}`}
      pendingLabel="Erasing…"
      action={async () => {
        const result = await eraseLeadsAction(slug, who, ids);
        if (result.ok) router.replace(`/t/${slug}/leads/erase?erased=${result.count}`);
        return result;
      }}
    >
      Erase {count}
    </ConfirmButton>
  );
}
