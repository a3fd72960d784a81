import Link from "next/link";
import { filterParams, type LeadFilter } from "@/lib/leads/lead-filter";
import type { CappedCount, StatusCounts } from "@/lib/leads/lead-status-counts";
import { LEAD_STATUS_LABELS, LEAD_STATUSES, type LeadStatus } from "@/lib/leads/lead-status";
import { focusRingClass, linkClass } from "@/components/ui/styles";

const shown = (n: CappedCount) => `${n.count.toLocaleString("en-US")}${n.capped ? "+" : ""}`;

/**
 * Links above the list: "All" and one per status with its count ("New (12)"), each keeping
 * the list's other filters (`filter` as in the URL, owner "me" unresolved) and starting at
 * the first page; the current one marked. `counts`: the filter's, without its status.
 */
export function StatusViews({ base, filter, counts }: { base: string; filter: LeadFilter; counts: StatusCounts }) {
  const href = (status: LeadStatus | null) => {
    const query = new URLSearchParams(filterParams({ ...filter, status })).toString();
    return query ? `${base}?${query}` : base;
  };
  const views = [
    { status: null, label: "All" },
    ...LEAD_STATUSES.map((status) => ({ status, label: `${LEAD_STATUS_LABELS[status]} (${shown(counts[status])})` })),
  ];
  return (
    <nav aria-label="Status views" className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
      {views.map((view) =>
        view.status === filter.status ? (
          <Link
            key={view.status ?? "all"}
            href={href(view.status)}
            aria-current="page"
            className={`rounded-sm font-semibold text-slate-900 ${focusRingClass}`}
          >
            {view.label}
          </Link>
        ) : (
          <Link key={view.status ?? "all"} href={href(view.status)} className={linkClass}>
            {view.label}
          </Link>
        ),
      )}
    </nav>
  );
}
