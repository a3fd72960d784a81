import Link from "next/link";
import type { LeadListItem } from "@/lib/leads/lead-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { cardClass, linkClass } from "@/components/ui/styles";

const th = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
const td = "px-4 py-3 text-sm text-slate-700";

export function LeadTable({ slug, leads }: { slug: string; leads: LeadListItem[] }) {
  return (
    <div className={`${cardClass} overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Leads, newest first</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>ID</th>
            <th scope="col" className={th}>Name</th>
            <th scope="col" className={th}>Organization</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={th}>Source</th>
            <th scope="col" className={th}>Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {leads.map((lead) => (
            <tr key={lead.id} className="hover:bg-slate-50">
              <td className={`${td} font-mono text-xs whitespace-nowrap`}>{lead.id}</td>
              <th scope="row" className={`${td} text-left font-normal`}>
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`/t/${slug}/leads/${lead.id}`} className={linkClass}>
                    {lead.name}
                  </Link>
                  {lead.possibleDuplicate ? <Badge tone="amber">Possible duplicate</Badge> : null}
                </div>
              </th>
              <td className={td}>{lead.organization}</td>
              <td className={td}>{lead.email ?? <span className="text-slate-400">—</span>}</td>
              <td className={td}>
                <Badge tone="indigo">{lead.source}</Badge>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <DateTime value={lead.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
