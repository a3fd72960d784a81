"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Dialog } from "./dialog";
import { FormError } from "./form-error";
import { buttonClass } from "./styles";

/**
 * A button that asks first: it opens a dialog with Cancel (focused, so Enter is the safe
 * choice) and a danger button that runs `action`. A refusal stays in the dialog as an alert.
 */
export function ConfirmButton({
  label,
  className,
  children,
  title,
  description,
  confirmLabel,
  pendingLabel,
  action,
}: {
  /** The trigger's accessible name. */
  label: string;
  className: string;
  children: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  action: () => Promise<ActionResult>;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function confirm() {
    startTransition(async () => {
      const result = await action();
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
        aria-label={label}
        title={label}
        className={className}
      >
        {children}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={description}>
        <FormError error={error} className="mb-3 text-sm text-red-700" />
        <div className="flex justify-end gap-2">
          <button type="button" onClick={() => setOpen(false)} className={buttonClass("secondary")} autoFocus>
            Cancel
          </button>
          <button type="button" onClick={confirm} disabled={pending} className={buttonClass("danger")}>
            {pending && pendingLabel ? pendingLabel : confirmLabel}
          </button>
        </div>
      </Dialog>
    </>
  );
}
