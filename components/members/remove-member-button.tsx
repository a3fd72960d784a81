"use client";

import { useState, useTransition } from "react";
import { removeMemberAction } from "@/app/t/[slug]/settings/members/actions";
import { Dialog } from "@/components/ui/dialog";
import { buttonClass } from "@/components/ui/styles";

export function RemoveMemberButton({ slug, userId, email }: { slug: string; userId: string; email: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        aria-label={`Remove ${email}`}
        className={buttonClass("ghost", "sm")}
      >
        Remove
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Remove member?" description={<>{email} loses access to this team at once.</>}>
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
                const result = await removeMemberAction(slug, userId);
                if (!result.ok) setError(result.error);
                // Removing yourself ends your access: the page would now be a 404.
                else if (result.removedSelf) window.location.assign("/");
                else setOpen(false);
              })
            }
            className={buttonClass("danger")}
          >
            Remove
          </button>
        </div>
      </Dialog>
    </>
  );
}
