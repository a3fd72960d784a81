"use client";

import { useState } from "react";
import { CheckIcon, CopyIcon } from "./icons";
import { iconButtonClass } from "./styles";

/** Copies public text (a key id, a link, a snippet) and confirms for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  }
  return (
    <>
      <button type="button" onClick={copy} aria-label={label} title={label} className={iconButtonClass}>
        {state === "copied" ? <CheckIcon className="h-4 w-4 text-emerald-600" /> : <CopyIcon />}
      </button>
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Copying failed; select the text instead" : ""}
      </span>
    </>
  );
}
