import Link from "next/link";
import { OWNER_ME, OWNER_NONE, RETURNED_7D, type LeadFilter } from "@/lib/leads/lead-filter";
import { linkClass } from "@/components/ui/styles";

const VIEWS = [
  { name: "owner", value: OWNER_ME, label: "My leads" },
  { name: "owner", value: OWNER_NONE, label: "Unassigned" },
  { name: "returned", value: RETURNED_7D, label: "Returned in the last 7 days" },
] as const;

/** Quick links above the list: the owner filter, or the "returned" one, alone; each current one marked. */
export function LeadViews({ base, filter }: { base: string; filter: Pick<LeadFilter, "owner" | "returned"> }) {
  return (
    <nav aria-label="Lead views" className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
      {VIEWS.map((view) => {
        const href = `${base}?${view.name}=${view.value}`;
        return filter[view.name] === view.value ? (
          <Link key={href} href={href} aria-current="page" className="font-semibold text-slate-900">
            {view.label}
          </Link>
        ) : (
          <Link key={href} href={href} className={linkClass}>
            {view.label}
          </Link>
        );
      })}
    </nav>
  );
}
