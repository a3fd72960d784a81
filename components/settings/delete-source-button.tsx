"use client";

import { useState, useTransition } from "react";
import { deleteLeadSourceAction } from "@/app/t/[slug]/settings/sources/actions";
import { Dialog } from "@/components/ui/dialog";
import { TrashIcon } from "@/components/ui/icons";
import { buttonClass, iconButtonClass } from "@/components/ui/styles";

export function DeleteSourceButton({ slug, sourceId, name }: { slug: string; sourceId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-label={`Delete source ${name}`} title="Delete source" className={iconButtonClass}>
        <TrashIcon />
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete source "${name}"?`}
        description='Its leads move to the "API" source. Requests that name this source will also be filed under "API".'
      >
        {error ? (
          <p role="alert" className="mb-3 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={() => setOpen(false)} className={buttonClass("secondary")} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            disabled={pending}
            onClick={() =>
              startTransition(async () => {
                const result = await deleteLeadSourceAction(slug, sourceId);
                if (result.ok) setOpen(false);
                else setError(result.error);
              })
            }
            className={buttonClass("danger")}
          >
            Delete source
          </button>
        </div>
      </Dialog>
    </>
  );
}
