"use client";

import { useId, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { WarningIcon } from "@/components/ui/icons";
import { cardClass, focusRingClass, inputClass } from "@/components/ui/styles";
import { snippets } from "./snippets";

/** "How to call this endpoint": copy-paste examples for this deployment, never containing a secret. */
export function EndpointSnippets({ baseUrl, keyIds, source }: { baseUrl: string; keyIds: string[]; source: string | null }) {
  const [chosen, setChosen] = useState<string | null>(null);
  // The chosen key while it exists, else the newest key (the list changes under the panel).
  const keyId = chosen && keyIds.includes(chosen) ? chosen : (keyIds[0] ?? "YOUR_API_KEY");
  const [active, setActive] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();
  const list = snippets({ baseUrl, keyId, source });
  const current = list[active]!;

  function onKeyDown(event: React.KeyboardEvent) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    const jump = event.key === "Home" ? 0 : event.key === "End" ? list.length - 1 : null;
    if (!step && jump === null) return;
    event.preventDefault();
    const next = jump ?? (active + step + list.length) % list.length;
    setActive(next);
    tabs.current[next]?.focus();
  }

  return (
    <aside aria-labelledby={`${id}-title`} className={`${cardClass} min-w-0 self-start p-5`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        How to call this endpoint
      </h3>
      <p className="mt-1 text-xs text-slate-600">
        <code className="font-mono break-all text-slate-800">POST {baseUrl}/api/method/crm.api.leads.create_lead</code> with the key and
        secret as headers, and the lead as JSON or form data.
      </p>
      <div role="note" className="mt-3 flex gap-2 rounded-md bg-amber-50 p-3 text-xs text-amber-900 ring-1 ring-amber-200">
        <WarningIcon className="mt-0.5 h-4 w-4 shrink-0" />
        <p>
          Treat the secret like a password. Never put it in client-side code (browser JavaScript, mobile apps) or a public repository: call
          this endpoint from your server, reading the secret from an environment variable.
        </p>
      </div>
      {keyIds.length > 1 ? (
        <Field id={`${id}-key`} label="Key" className="mt-3">
          <select
            id={`${id}-key`}
            value={keyId}
            onChange={(e) => setChosen(e.target.value)}
            className={`${inputClass} mt-1 font-mono text-xs`}
          >
            {keyIds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <div role="tablist" aria-label="Language" className="mt-4 flex flex-wrap gap-1 border-b border-slate-200">
        {list.map((snippet, index) => (
          <button
            key={snippet.label}
            ref={(el) => {
              tabs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === active}
            aria-controls={`${id}-panel`}
            tabIndex={index === active ? 0 : -1}
            onClick={() => setActive(index)}
            onKeyDown={onKeyDown}
            className={`-mb-px border-b-2 px-3 py-2 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
              index === active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {snippet.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${active}`} className="relative mt-3">
        {/* Focusable, so a keyboard can scroll a long line into view. */}
        <pre
          tabIndex={0}
          className={`overflow-x-auto rounded-lg ${focusRingClass} bg-slate-900 p-4 pr-12 text-xs leading-relaxed text-slate-100`}
        >
          <code>{current.code}</code>
        </pre>
        <div className="absolute top-2 right-2 rounded-md bg-white/90">
          <CopyButton text={current.code} label={`Copy ${current.label} example`} />
        </div>
      </div>
    </aside>
  );
}
