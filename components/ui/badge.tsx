const tones = {
  green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  red: "bg-red-50 text-red-700 ring-red-600/20",
} as const;

export type BadgeTone = keyof typeof tones;

/** A short label; a long one (a 100-character source name) is truncated, with the full text as its title. */
export function Badge({ tone = "slate", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return (
    <span
      title={typeof children === "string" ? children : undefined}
      className={`inline-flex max-w-full items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
    >
      <span className="truncate">{children}</span>
    </span>
  );
}

/** Whether a thing is on: a green badge with `labels[0]` ("On", "Enabled") or a grey one with `labels[1]`. */
export function OnOffBadge({ on, labels }: { on: boolean; labels: readonly [on: string, off: string] }) {
  return on ? <Badge tone="green">{labels[0]}</Badge> : <Badge tone="slate">{labels[1]}</Badge>;
}
