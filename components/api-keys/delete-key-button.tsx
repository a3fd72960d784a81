"use client";

import { useState, useTransition } from "react";
import { deleteApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { Dialog } from "@/components/ui/dialog";
import { TrashIcon } from "@/components/ui/icons";
import { buttonClass, iconButtonClass } from "@/components/ui/styles";

export function DeleteKeyButton({ slug, keyId, description }: { slug: string; keyId: string; description: string | null }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function confirm() {
    startTransition(async () => {
      const result = await deleteApiKeyAction(slug, keyId);
      if (result.ok) setOpen(false);
      else setError(result.error);
    });
  }

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        aria-label={`Delete API key ${keyId}`}
        title="Delete key"
        className={`${iconButtonClass} hover:bg-red-50 hover:text-red-700`}
      >
        <TrashIcon />
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete API key?"
        description={
          <>
            Key <code className="font-mono text-slate-800">{keyId}</code>
            {description ? <> ({description})</> : null} stops working immediately: every request that uses it will be
            refused with &quot;Invalid API key&quot;. This cannot be undone.
          </>
        }
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
          <button type="button" onClick={confirm} disabled={pending} className={buttonClass("danger")}>
            {pending ? "Deleting…" : "Delete key"}
          </button>
        </div>
      </Dialog>
    </>
  );
}
