import { cardClass } from "@/components/ui/styles";

export type DetailRow = [label: string, value: string | null];

/** A titled card of label/value pairs. Values are text nodes: React escapes them, nothing is parsed as HTML. */
export function DetailCard({ title, rows }: { title: string; rows: DetailRow[] }) {
  const id = `${title.replace(/\W+/g, "-").toLowerCase()}-heading`;
  return (
    <section aria-labelledby={id} className={`${cardClass} p-5`}>
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      <dl className="mt-4 grid grid-cols-[10rem_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="break-words text-slate-900">{value ?? <span className="text-slate-400">—</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
