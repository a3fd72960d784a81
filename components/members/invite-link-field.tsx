"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/styles";

/** A one-time invite link, shown only now: read-only (focus selects it), with a Copy button. */
export function InviteLinkField({
  id,
  label,
  link,
  copyLabel,
  className,
}: {
  id: string;
  label: string;
  link: string;
  copyLabel: string;
  className: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} readOnly value={link} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} font-mono text-xs`} />
      <CopyButton text={link} label={copyLabel} />
    </div>
  );
}
