"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { copyApiSecretAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { CheckIcon, CopyIcon } from "@/components/ui/icons";
import { buttonClass, inputClass } from "@/components/ui/styles";

class CopyRefused extends Error {}

/**
 * Writes text that is still being fetched to the clipboard. Passing a promise to
 * ClipboardItem keeps the click's user activation (Safari needs that); browsers
 * without it get writeText once the text has arrived.
 */
async function writeClipboard(text: Promise<string>): Promise<void> {
  if (typeof ClipboardItem !== "undefined" && navigator.clipboard?.write) {
    const blob = text.then((value) => new Blob([value], { type: "text/plain" }));
    await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    return;
  }
  await navigator.clipboard.writeText(await text);
}

/**
 * The API secret's Copy button. One click asks the server for the secret, which the
 * server hands out once and then erases; the browser puts it in the clipboard.
 */
export function CopySecretButton({ slug, keyId, copied }: { slug: string; keyId: string; copied: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  // Shown only when the server released the secret but the clipboard refused it.
  const [rescue, setRescue] = useState<string | null>(null);

  function copy() {
    setMessage(null);
    startTransition(async () => {
      const result = copyApiSecretAction(slug, keyId);
      const secret = result.then((r) => {
        if (!r.ok) throw new CopyRefused(r.error);
        return r.secret;
      });
      try {
        await writeClipboard(secret);
        setMessage("Secret copied to the clipboard.");
      } catch (error) {
        const released = await secret.catch(() => null);
        if (released) setRescue(released);
        else setMessage(error instanceof CopyRefused ? error.message : "Copying failed; try again.");
      }
      router.refresh();
    });
  }

  const done = copied && !pending;
  return (
    <div className="flex flex-col items-start gap-2">
      <button type="button" onClick={copy} disabled={copied || pending} className={buttonClass(done ? "secondary" : "primary", "sm")}>
        {done ? <CheckIcon className="h-3.5 w-3.5" /> : <CopyIcon className="h-3.5 w-3.5" />}
        {done ? "Copied" : pending ? "Copying…" : "Copy"}
      </button>
      <span role="status" className={message ? "text-xs text-slate-600" : "sr-only"}>
        {message}
      </span>
      {rescue ? (
        <div role="alert" className="w-full rounded-md bg-amber-50 p-3 text-xs text-amber-900 ring-1 ring-amber-200">
          <p className="font-medium">The browser blocked the clipboard. Copy the secret below now: it will not be shown again.</p>
          <label className="sr-only" htmlFor={`rescue-${keyId}`}>
            API secret
          </label>
          <input id={`rescue-${keyId}`} readOnly value={rescue} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} mt-2 font-mono`} />
        </div>
      ) : null}
    </div>
  );
}
