"use client";

import { useRouter } from "next/navigation";
import { undoImportAction } from "@/app/t/[slug]/leads/import/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

/** Undo: deletes the leads the import created, after a confirmation that says what stays. */
export function UndoImportButton({ slug, id, created }: { slug: string; id: string; created: number }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Undo import"
      className={buttonClass("danger")}
      title="Undo this import?"
      description={`The ${created.toLocaleString("en-US")} leads it created are deleted. Leads that other leads were merged into since are kept and named; leads it filled in stay as they are.`}
      confirmLabel="Delete the imported leads"
      pendingLabel="Deleting…"
      action={() => undoImportAction(slug, id)}
      onDone={() => router.refresh()}
    >
      Undo import
    </ConfirmButton>
  );
}
