import Link from "next/link";
import type { DuplicateLead } from "@/lib/leads/duplicate-store";
import { buttonClass, cardClass, linkClass } from "@/components/ui/styles";
import { LeadRows } from "./lead-rows";

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
        <LeadRows
          leads={duplicates}
          why={(lead) => lead.reasons.map((r) => REASON[r]).join(", ")}
          noteClassName="text-xs text-slate-500"
          who={(lead) => (
            <>
              <Link href={`/t/${slug}/leads/${lead.id}`} className={linkClass}>
                {lead.name}
              </Link>
              <span className="font-mono text-xs text-slate-500">{lead.id}</span>
              <span className="min-w-0 text-slate-600">{lead.email}</span>
            </>
          )}
        />
      ) : (
        <p className="mt-3 text-sm text-slate-500">No other lead of this team has the same email or phone number.</p>
      )}
    </section>
  );
}
