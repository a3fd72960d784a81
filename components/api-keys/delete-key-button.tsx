"use client";

import { deleteApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { TrashIcon } from "@/components/ui/icons";
import { iconButtonClass } from "@/components/ui/styles";

export function DeleteKeyButton({ slug, keyId, description }: { slug: string; keyId: string; description: string | null }) {
  return (
    <ConfirmButton
      label={`Delete API key ${keyId}`}
      className={`${iconButtonClass} hover:bg-red-50 hover:text-red-700`}
      title="Delete API key?"
      description={
        <>
          Key <code className="font-mono text-slate-800">{keyId}</code>
          {description ? <> ({description})</> : null} stops working immediately: every request that uses it will be refused with
          &quot;Invalid API key&quot;. This cannot be undone.
        </>
      }
      confirmLabel="Delete key"
      pendingLabel="Deleting…"
      action={() => deleteApiKeyAction(slug, keyId)}
    >
      <TrashIcon />
    </ConfirmButton>
  );
}
