"use client";

import { useRouter } from "next/navigation";
import { useEffect, useEffectEvent, useRef, useState, useTransition } from "react";
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
 * An API secret with its Copy button. Until the first copy the secret is shown in full;
 * any copy of it is that copy: the button (which asks the server for the secret, handed
 * out once and then erased), or the browser's own copy of a selection that holds it
 * (Ctrl+C, the context menu), which calls the same server action. Either way the page
 * masks the secret at once, and the server marks it copied for everyone.
 */
export function ApiSecret({
  slug,
  keyId,
  keyName,
  secret,
  masked,
  copied,
}: {
  slug: string;
  keyId: string;
  /** "key 0a65…, Website form": names the Copy button for screen readers. */
  keyName: string;
  /** The full secret until the first copy, then the masked form. */
  secret: string;
  masked: string;
  copied: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [taken, setTaken] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // Shown only when the server released the secret but the clipboard refused it.
  const [rescue, setRescue] = useState<string | null>(null);
  const secretRef = useRef<HTMLElement>(null);
  const isCopied = copied || taken;

  // After a copy the button is disabled, so focus moves to the secret (now masked),
  // which the status message describes, rather than being lost to the page.
  function settle(text: string) {
    setMessage(text);
    secretRef.current?.focus();
    router.refresh();
  }

  // The copy listener below settles with the render's latest router and state.
  const settleAfterCopyEvent = useEffectEvent(settle);

  // The browser's own copy (keyboard or context menu) of a selection holding the secret.
  useEffect(() => {
    if (copied) return;
    function onCopy(event: ClipboardEvent) {
      const element = secretRef.current;
      const selection = document.getSelection();
      if (taken || !element || !selection || selection.isCollapsed || !selection.containsNode(element, true)) return;
      const selected = selection.toString();
      // The clipboard's text is fixed here, before the page masks the secret.
      event.preventDefault();
      if (!selected.includes(secret)) {
        setMessage("Select the whole secret, or use its Copy button: a secret is copied once, in full.");
        return;
      }
      event.clipboardData?.setData("text/plain", selected);
      setTaken(true);
      startTransition(async () => {
        const result = await copyApiSecretAction(slug, keyId).catch(() => null);
        if (result === null) settleAfterCopyEvent("The secret is in your clipboard, but the server could not be told. Reload the page.");
        else settleAfterCopyEvent(result.ok ? "Secret copied to the clipboard. It is now masked for everyone." : result.error);
      });
    }
    document.addEventListener("copy", onCopy);
    return () => document.removeEventListener("copy", onCopy);
  }, [copied, taken, secret, slug, keyId]);

  function copy() {
    setMessage(null);
    startTransition(async () => {
      const result = copyApiSecretAction(slug, keyId);
      const released = result.then((r) => {
        if (!r.ok) throw new CopyRefused(r.error);
        return r.secret;
      });
      try {
        await writeClipboard(released);
        setTaken(true);
        settle("Secret copied to the clipboard. It is now masked for everyone.");
      } catch (error) {
        const value = await released.catch(() => null);
        setTaken(true);
        if (value) {
          setRescue(value);
          router.refresh();
        } else settle(error instanceof CopyRefused ? error.message : "Copying failed; try again.");
      }
    });
  }

  const statusId = `secret-status-${keyId}`;
  return (
    <>
      <code
        ref={secretRef}
        tabIndex={-1}
        aria-describedby={statusId}
        data-testid="api-secret"
        className={`break-all rounded px-2 py-1 font-mono text-xs ${isCopied ? "bg-slate-100 text-slate-600" : "bg-amber-50 text-slate-900 ring-1 ring-amber-200"}`}
      >
        {isCopied ? masked : secret}
      </code>
      <div className="flex flex-col items-start gap-2">
        <button
          type="button"
          onClick={copy}
          disabled={isCopied || pending}
          aria-label={pending ? `Copying secret of ${keyName}` : isCopied ? `Copied: secret of ${keyName}` : `Copy secret of ${keyName}`}
          className={buttonClass(isCopied && !pending ? "secondary" : "primary", "sm")}
        >
          {isCopied && !pending ? <CheckIcon className="h-3.5 w-3.5" /> : <CopyIcon className="h-3.5 w-3.5" />}
          {isCopied && !pending ? "Copied" : pending ? "Copying…" : "Copy"}
        </button>
        <span id={statusId} role="status" className={message ? "text-xs text-slate-600" : "sr-only"}>
          {message}
        </span>
        {rescue ? (
          <div role="alert" className="w-full rounded-md bg-amber-50 p-3 text-xs text-amber-900 ring-1 ring-amber-200">
            <p className="font-medium">The browser blocked the clipboard. Copy the secret below now: it will not be shown again.</p>
            <label className="sr-only" htmlFor={`rescue-${keyId}`}>
              API secret
            </label>
            <input
              id={`rescue-${keyId}`}
              readOnly
              value={rescue}
              onFocus={(e) => e.currentTarget.select()}
              className={`${inputClass} mt-2 font-mono`}
            />
          </div>
        ) : null}
      </div>
    </>
  );
}
