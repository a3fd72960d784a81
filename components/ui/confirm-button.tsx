"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Dialog } from "./dialog";
import { FormError } from "./form-error";
import { buttonClass } from "./styles";
import { useActionRunner } from "./use-action-runner";
import { useHydrated } from "./use-hydrated";

export type ConfirmButtonProps<T extends object> = {
  /** The trigger's accessible name. */
  label: string;
  className: string;
  children: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  action: () => Promise<ActionResult<T>>;
  onDone?: (result: T) => void;
};

/**
 * A button that asks first: it opens a dialog with Cancel (focused, so Enter is the safe
 * choice) and a danger button that runs `action`. A refusal stays in the dialog as an alert;
 * a success closes it and calls `onDone` with the result (to leave a deleted item's page, say).
 */
export function ConfirmButton<T extends object>({
  label,
  className,
  children,
  title,
  description,
  confirmLabel,
  pendingLabel,
  action,
  onDone,
}: ConfirmButtonProps<T>) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const { pending, error, setError, run } = useActionRunner();

  const confirm = () =>
    run(action, (result) => {
      if (!result.ok) return;
      setOpen(false);
      onDone?.(result);
    });

  return (
    <>
      <button
        type="button"
        disabled={!hydrated}
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

/**
 * The danger button that deletes the item of the page it is on (a connection, a webhook
 * endpoint, a lead): it asks first, shows "Deleting…" meanwhile, then goes to `leaveTo` (the
 * list the item was in). Its text is "Delete" unless `children` says otherwise.
 */
export function DeleteAndLeaveButton<T extends object>({
  leaveTo,
  children = "Delete",
  ...confirm
}: Omit<ConfirmButtonProps<T>, "className" | "pendingLabel" | "onDone" | "children"> & { leaveTo: string; children?: React.ReactNode }) {
  const router = useRouter();
  return (
    <ConfirmButton {...confirm} className={buttonClass("danger")} pendingLabel="Deleting…" onDone={() => router.push(leaveTo)}>
      {children}
    </ConfirmButton>
  );
}
