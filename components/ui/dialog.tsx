"use client";

import { useId, useLayoutEffect, useRef } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside the dialog: showModal() makes the page behind it inert, but Tab
 * from the last control would still leave for the browser's own UI.
 */
function trapTab(event: React.KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal built on <dialog>: showModal() makes the rest of the page inert, Tab cycles
 * inside, Escape closes it and focus returns to the opener. `open` is controlled by
 * the parent.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Layout effect: the native dialog opens and closes in the same commit as `open`, so
  // focus never returns to the opener while the parent still thinks the dialog is open.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // The native "close" event arrives as a task after dialog.close() (the layout effect): an
      // Enter on the refocused opener in between reopens the dialog first, and that late event
      // must not close it again. Only a dialog that is closed now tells the parent.
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
      // Escape: the parent's state closes the dialog (see the layout effect). Left to the
      // browser, the dialog closed at once and told the parent only with the later "close"
      // event, and an Enter on the refocused opener in between was lost.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={trapTab}
      className="m-auto w-full max-w-md rounded-xl bg-white p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      {/* Content exists only while open, so a closed dialog adds nothing to the page's text. */}
      {open ? (
        <div className="p-6">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <div className="mt-2 text-sm text-slate-600">{description}</div> : null}
          <div className="mt-5">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}
