"use client";

import { useRouter } from "next/navigation";
import { eraseLeadsAction } from "@/app/t/[slug]/leads/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";
import { counted, erasureQuery } from "./erasure-words";

/**
 * Erases the listed leads of a person, and the other records the page listed (`records`:
 * how many), after a confirmation; then the page says what went. With no lead, the records
 * alone are erased.
 */
export function EraseButton({ slug, who, ids, records }: { slug: string; who: string; ids: string[]; records: number }) {
  const router = useRouter();
  const what = ids.length ? counted(ids.length, "leads") : `${records} ${records === 1 ? "record" : "records"}`;
  const others = records ? "the other records listed, " : "";
  const description = ids.length
    ? `These leads, ${others}and the request-log entries and stored responses that name them, are deleted for good.`
    : "The records listed, which name this person, are deleted for good.";
  return (
    <ConfirmButton
      label={`Erase ${what}`}
      className={buttonClass("danger")}
      title={`Erase ${what}?`}
      description={description}
      confirmLabel={`Erase ${what}`}
      pendingLabel="Erasing…"
      action={async () => {
        const result = await eraseLeadsAction(slug, who, ids);
        if (result.ok) router.replace(`/t/${slug}/leads/erase?${erasureQuery(result.erasure)}`);
        return result;
      }}
    >
      Erase {what}
    </ConfirmButton>
  );
}
