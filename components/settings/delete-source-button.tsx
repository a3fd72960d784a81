"use client";

import { deleteLeadSourceAction } from "@/app/t/[slug]/settings/sources/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { TrashIcon } from "@/components/ui/icons";
import { iconButtonClass } from "@/components/ui/styles";

export function DeleteSourceButton({ slug, sourceId, name }: { slug: string; sourceId: string; name: string }) {
  return (
    <ConfirmButton
      label={`Delete source ${name}`}
      className={iconButtonClass}
      title={`Delete source "${name}"?`}
      description='Its leads move to the "API" source. Requests that name this source will also be filed under "API".'
      confirmLabel="Delete source"
      action={() => deleteLeadSourceAction(slug, sourceId)}
    >
      <TrashIcon />
    </ConfirmButton>
  );
}
