import { DateTime } from "@/components/ui/date-time";

/**
 * A card's short list of leads, one a row: who each lead is (`who`: its id, name, contact),
 * and on the right, in `noteClassName`, why it is listed (`why`) and when it was created.
 */
export function LeadRows<T extends { id: string; createdAt: Date }>({
  leads,
  who,
  why,
  noteClassName,
}: {
  leads: T[];
  who: (lead: T) => React.ReactNode;
  why: (lead: T) => string;
  noteClassName: string;
}) {
  return (
    <ul className="mt-3 divide-y divide-slate-100">
      {leads.map((lead) => (
        <li key={lead.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
          <span className="flex min-w-0 flex-wrap items-center gap-2 [overflow-wrap:anywhere]">{who(lead)}</span>
          <span className={noteClassName}>
            {why(lead)} · <DateTime value={lead.createdAt} />
          </span>
        </li>
      ))}
    </ul>
  );
}
