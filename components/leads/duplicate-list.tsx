import Link from "next/link";
import type { DuplicateLead } from "@/lib/leads/duplicate-store";
import { DateTime } from "@/components/ui/date-time";
import { buttonClass, cardClass, linkClass } from "@/components/ui/styles";

const REASON = { email: "same email", phone: "same phone" } as const;

export function DuplicateList({
  slug,
  duplicates,
  mergeHref = null,
}: {
  slug: string;
  duplicates: DuplicateLead[];
  mergeHref?: string | null;
}) {
  return (
    <section aria-labelledby="duplicates-heading" className={`${cardClass} p-5`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="duplicates-heading" className="text-sm font-semibold text-slate-900">
          Possible duplicates
        </h2>
        {mergeHref ? (
          <Link href={mergeHref} className={buttonClass("secondary", "sm")}>
            Merge duplicates…
          </Link>
        ) : null}
      </div>
      {duplicates.length ? (
        <ul className="mt-3 divide-y divide-slate-100">
          {duplicates.map((lead) => (
            <li key={lead.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
              <span className="flex min-w-0 flex-wrap items-center gap-2 [overflow-wrap:anywhere]">
                <Link href={`/t/${slug}/leads/${lead.id}`} className={linkClass}>
                  {lead.name}
                </Link>
                <span className="font-mono text-xs text-slate-500">{lead.id}</span>
                <span className="min-w-0 text-slate-600">{lead.email}</span>
              </span>
              <span className="text-xs text-slate-500">
                {lead.reasons.map((r) => REASON[r]).join(", ")} · <DateTime value={lead.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-500">No other lead of this team has the same email or phone number.</p>
      )}
    </section>
  );
}
