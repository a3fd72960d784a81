"use client";

import { useState, useTransition } from "react";
import { rollApiKeyAction, updateApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { EXPIRY_CHOICES, EXPIRY_LABEL, ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Dialog } from "@/components/ui/dialog";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";

/** A small button that opens a dialog holding a form; the form's action returns an ActionResult. */
function FormDialogButton({
  label,
  text,
  title,
  description,
  submitLabel,
  pendingLabel,
  onSubmit,
  onDone,
  children,
}: {
  label: string;
  text: string;
  title: string;
  description: React.ReactNode;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (form: FormData) => Promise<ActionResult<object>>;
  onDone?: (result: ActionResult<object> & { ok: true }) => void;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      // A failed call (network down, server error) keeps the dialog and says so.
      const result = await onSubmit(form).catch(() => ({ ok: false as const, error: "The server could not be reached; nothing was changed. Try again." }));
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setOpen(false);
      onDone?.(result);
    });
  }

  return (
    <>
      <button
        type="button"
        aria-label={label}
        title={label}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        className={buttonClass("secondary", "sm")}
      >
        {text}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={description}>
        <form onSubmit={submit} className="space-y-4">
          {children}
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setOpen(false)} className={buttonClass("secondary")}>
              Cancel
            </button>
            <button type="submit" disabled={pending} className={buttonClass("primary")}>
              {pending ? pendingLabel : submitLabel}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

export function ExpirySelect({
  id,
  choices,
  keep,
  initial,
}: {
  id: string;
  choices: readonly (keyof typeof EXPIRY_LABEL)[];
  /** The label of a first "keep as it is" option. */
  keep?: string;
  initial?: keyof typeof EXPIRY_LABEL;
}) {
  return (
    <select id={id} name="expiry" defaultValue={keep ? "keep" : (initial ?? choices[0])} className={`${inputClass} mt-1.5`}>
      {keep ? <option value="keep">{keep}</option> : null}
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {EXPIRY_LABEL[choice]}
        </option>
      ))}
    </select>
  );
}

/** Rename a key and set or remove its expiry (owners and admins). */
export function EditKeyButton({
  slug,
  keyId,
  keyName,
  description,
  expiresText,
}: {
  slug: string;
  keyId: string;
  keyName: string;
  description: string | null;
  /** "Keep: expires in 3 hours", when the key has an expiry. */
  expiresText: string | null;
}) {
  return (
    <FormDialogButton
      label={`Edit ${keyName}`}
      text="Edit"
      title="Edit API key"
      description={
        <>
          Key <code className="font-mono text-slate-800">{keyId}</code>. Its id and secret stay the same.
        </>
      }
      submitLabel="Save"
      pendingLabel="Saving…"
      onSubmit={(form) => updateApiKeyAction(slug, keyId, String(form.get("description") ?? ""), String(form.get("expiry") ?? "keep"))}
    >
      <div>
        <label htmlFor={`edit-description-${keyId}`} className={labelClass}>
          Description
        </label>
        <input id={`edit-description-${keyId}`} name="description" maxLength={200} defaultValue={description ?? ""} className={`${inputClass} mt-1.5`} autoFocus />
      </div>
      <div>
        <label htmlFor={`edit-expiry-${keyId}`} className={labelClass}>
          Expires
        </label>
        <ExpirySelect id={`edit-expiry-${keyId}`} choices={EXPIRY_CHOICES} keep={expiresText ?? "Never (keep)"} />
      </div>
    </FormDialogButton>
  );
}

/** Roll a key: a replacement with the same description; the old key expires as chosen. */
export function RollKeyButton({ slug, keyId, keyName }: { slug: string; keyId: string; keyName: string }) {
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <FormDialogButton
        label={`Roll ${keyName}`}
        text="Roll"
        title="Roll API key"
        description={
          <>
            A new key with a new secret and the same description replaces key{" "}
            <code className="font-mono text-slate-800">{keyId}</code>. Put the new secret on your server, then let the old
            key expire.
          </>
        }
        submitLabel="Roll key"
        pendingLabel="Rolling…"
        onSubmit={(form) => rollApiKeyAction(slug, keyId, String(form.get("expiry") ?? ""))}
        onDone={(result) => setNotice(`Key ${"keyId" in result ? String(result.keyId) : ""} generated to replace ${keyId}. Copy its secret now.`)}
      >
        <div>
          <label htmlFor={`roll-expiry-${keyId}`} className={labelClass}>
            The old key stops working
          </label>
          <ExpirySelect id={`roll-expiry-${keyId}`} choices={ROLL_CHOICES} initial="24h" />
        </div>
      </FormDialogButton>
      <span role="status" className="sr-only">
        {notice}
      </span>
    </>
  );
}
