"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Dialog } from "./dialog";
import { FormError } from "./form-error";
import { PlusIcon } from "./icons";
import { buttonClass } from "./styles";
import { SubmitButton } from "./submit-button";
import { useFormAction } from "./use-form-action";
import { useHydrated } from "./use-hydrated";

export type FormDialogProps<T extends object> = {
  /** The trigger's accessible name (and its text, without `trigger`). */
  triggerLabel: string;
  trigger?: { text: string; className: string };
  title: string;
  description: React.ReactNode;
  submitLabel: string;
  pendingLabel: string;
  submit: (form: FormData) => Promise<ActionResult<T>>;
  /** What to say when the server action itself fails (network down, server error). */
  unreachable?: string;
  notice?: (result: T) => string;
  onDone?: (result: T) => void;
  children: React.ReactNode;
};

/**
 * A button that opens a dialog with a form: by default a primary "add" button showing
 * `triggerLabel`; `trigger` gives it other text and style (a small "Edit" named by
 * `triggerLabel`, e.g. "Edit key 0a65…, Website form"). `submit` runs the server action
 * with the form's data; a refusal stays in the dialog as an alert, a success closes it,
 * announces `notice(result)` to screen readers (the new item shows in the list at once)
 * and calls `onDone(result)`. A call that fails outright (network down, server error)
 * stays in the dialog as an alert too.
 */
export function FormDialog<T extends object>({
  triggerLabel,
  trigger,
  title,
  description,
  submitLabel,
  pendingLabel,
  submit,
  unreachable = "The server could not be reached; nothing was saved. Try again.",
  notice,
  onDone,
  children,
}: FormDialogProps<T>) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const [announced, setAnnounced] = useState<string | null>(null);
  const { pending, error, setError, onSubmit } = useFormAction(submit, {
    unreachable,
    onDone: (result) => {
      setOpen(false);
      setAnnounced(notice?.(result) ?? null);
      onDone?.(result);
    },
  });

  return (
    <div className="shrink-0">
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        {...(trigger ? { "aria-label": triggerLabel, title: triggerLabel } : {})}
        className={trigger?.className ?? buttonClass("primary")}
      >
        {trigger ? (
          trigger.text
        ) : (
          <>
            <PlusIcon /> {triggerLabel}
          </>
        )}
      </button>
      <p role="status" className="sr-only">
        {announced}
      </p>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={description}>
        <form onSubmit={onSubmit} className="space-y-4">
          {children}
          <FormError error={error} className="text-sm text-red-700" />
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setOpen(false)} className={buttonClass("secondary")}>
              Cancel
            </button>
            <SubmitButton pending={pending} label={submitLabel} pendingLabel={pendingLabel} />
          </div>
        </form>
      </Dialog>
    </div>
  );
}
