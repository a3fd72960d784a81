"use client";

import type { BuilderGuide } from "@/lib/connections/builder-guides";
import { CopyButton } from "@/components/ui/copy-button";
import { cardClass, focusRingClass, inputClass } from "@/components/ui/styles";

/** One value to paste into the builder, read-only with a copy button. */
function CopyRow({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1.5 flex items-center gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className={`${inputClass} font-mono text-xs`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={value} label={`Copy the ${label}`} />
      </div>
    </div>
  );
}

/**
 * Code to paste into the builder, with the URL in it (Google Forms' Apps Script): read-only,
 * scrolling inside itself (focusable, so a keyboard can scroll it), with a copy button.
 */
function ScriptBlock({ script }: { script: string }) {
  return (
    <div className="min-w-0">
      <div className="flex items-center justify-between gap-2">
        <h3 id="connection-script" className="text-sm font-medium text-slate-800">
          Apps Script
        </h3>
        <CopyButton text={script} label="Copy the Apps Script" />
      </div>
      <pre
        role="region"
        aria-labelledby="connection-script"
        tabIndex={0}
        className={`mt-1.5 max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100 ${focusRingClass}`}
      >
        <code>{script}</code>
      </pre>
    </div>
  );
}

/**
 * The connection's URL (and signing secret) right after it was made or rolled, with the
 * builder's steps: shown this once, never again.
 */
export function ShownOnce({ url, signingSecret, guide }: { url: string; signingSecret: string | null; guide: BuilderGuide | null }) {
  return (
    <div className={`${cardClass} space-y-4 border-amber-300 bg-amber-50 p-5`} role="region" aria-label="Connection URL, shown once">
      <p className="text-sm font-semibold text-amber-900">
        Copy {signingSecret ? "these now: the URL and the signing secret are" : "this now: the URL is"} shown only this once.
      </p>
      <CopyRow id="connection-url" label="Connection URL" value={url} />
      {signingSecret ? <CopyRow id="connection-secret" label="Signing secret" value={signingSecret} /> : null}
      {guide ? (
        <div className="text-sm text-slate-800">
          <p>{guide.intro}</p>
          <ol className="mt-2 list-decimal space-y-1 pl-5">
            {guide.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      ) : null}
      {guide?.script ? <ScriptBlock script={guide.script(url)} /> : null}
    </div>
  );
}
