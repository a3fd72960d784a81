import Link from "next/link";
import { OWNER_ME, OWNER_NONE } from "@/lib/leads/lead-filter";
import { linkClass } from "@/components/ui/styles";

const VIEWS = [
  { owner: OWNER_ME, label: "My leads" },
  { owner: OWNER_NONE, label: "Unassigned" },
] as const;

/** Quick links above the list: the owner filter alone, the current one marked. */
export function OwnerLinks({ base, owner }: { base: string; owner: string | null }) {
  return (
    <nav aria-label="Lead views" className="flex flex-wrap gap-4 text-sm">
      {VIEWS.map((view) =>
        view.owner === owner ? (
          <Link key={view.owner} href={`${base}?owner=${view.owner}`} aria-current="page" className="font-semibold text-slate-900">
            {view.label}
          </Link>
        ) : (
          <Link key={view.owner} href={`${base}?owner=${view.owner}`} className={linkClass}>
            {view.label}
          </Link>
        ),
      )}
    </nav>
  );
}
