"use client";

import { useState, useTransition } from "react";
import { generateApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { EXPIRY_CHOICES } from "@/lib/api-keys/key-expiry";
import { Dialog } from "@/components/ui/dialog";
import { ExpirySelect } from "./key-lifecycle-buttons";
import { PlusIcon } from "@/components/ui/icons";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";

export function GenerateKeyDialog({ slug }: { slug: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "");
    startTransition(async () => {
      const result = await generateApiKeyAction(slug, description, String(form.get("expiry") ?? "never")).catch(() => ({
        ok: false as const,
        error: "The server could not be reached; no key was generated. Try again.",
      }));
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setOpen(false);
      setNotice(`Key ${result.keyId} generated. Copy its secret now: after the first copy it is only shown masked.`);
    });
  }

  return (
    <div className="shrink-0">
      <button
        type="button"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        className={buttonClass("primary")}
      >
        <PlusIcon /> Generate Key
      </button>
      {/* The new key shows in the list at once; screen readers also hear it here. */}
      <p role="status" className="sr-only">
        {notice}
      </p>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Generate API key"
        description="The secret stays visible in the list until someone copies it once. After that only a masked form remains."
      >
        <form onSubmit={submit} className="space-y-4">
          <div>
            <label htmlFor="key-description" className={labelClass}>
              Description <span className="font-normal text-slate-500">(optional)</span>
            </label>
            <input
              id="key-description"
              name="description"
              maxLength={200}
              placeholder="e.g. Website contact form"
              className={`${inputClass} mt-1.5`}
              autoFocus
            />
          </div>
          <div>
            <label htmlFor="key-expiry" className={labelClass}>
              Expires
            </label>
            <ExpirySelect id="key-expiry" choices={EXPIRY_CHOICES} />
          </div>
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
              {pending ? "Generating…" : "Generate"}
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
