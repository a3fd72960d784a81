"use client";

import Link from "next/link";
import { useState } from "react";
import { deleteLeadsAction, deleteMatchingLeadsAction } from "@/app/t/[slug]/leads/actions";
import type { LeadListItem } from "@/lib/leads/lead-list-store";
import { LEAD_STATUS_LABELS, NEW_LEAD_STATUS } from "@/lib/leads/lead-status";
import { waitingTime } from "@/lib/leads/lead-waiting";
import { BulkOwnership } from "@/components/leads/bulk-ownership";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DateTime } from "@/components/ui/date-time";
import type { Choice } from "@/components/ui/select-options";
import { buttonClass, cardClass, linkClass } from "@/components/ui/styles";

const th = "px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4";
const td = "px-3 py-3 text-sm text-slate-700 sm:px-4";
// On a phone the list keeps name, email and date in view: the date goes under the email,
// the name's column is capped so a long name wraps instead of pushing the others out, and
// the ID, organization, status, owner and source columns are hidden (the lead's page has them all).
const wide = "hidden sm:table-cell";
const checkbox =
  "h-4 w-4 rounded border-slate-400 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

const leads = (n: number) => (n === 1 ? "1 lead" : `${n.toLocaleString("en-US")} leads`);

/**
 * What owners and admins manage: besides the selected rows, every lead matching the list's
 * filter (to delete them); `members`, the team's, to assign the selected rows to.
 */
export type MatchingLeads = { count: number; capped: boolean; narrowed: boolean; members: Choice[] };

/**
 * The lead list. `listQuery` (the list's URL query) travels to each detail page, whose
 * "← Leads" returns to this very search, filter and page. `manage`: owners and admins
 * select rows to assign, set their status or delete them, or delete every lead matching
 * the filter. `now`: the server's time of the page, from which a New lead's wait is told.
 */
export function LeadTable({
  slug,
  leads: rows,
  listQuery,
  sortLabel,
  manage,
  now,
}: {
  slug: string;
  leads: LeadListItem[];
  listQuery: string;
  sortLabel: string;
  manage?: MatchingLeads | null;
  now: Date;
}) {
  const [selected, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  // The last bulk change's outcome, announced until the selection changes again.
  const [outcome, setOutcome] = useState<string | null>(null);
  const setSelected = (next: ReadonlySet<string> | ((current: ReadonlySet<string>) => ReadonlySet<string>)) => {
    setOutcome(null);
    setSelectedIds(next);
  };
  const visible = rows.filter((lead) => selected.has(lead.id)).map((lead) => lead.id);
  const allSelected = rows.length > 0 && visible.length === rows.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const from = listQuery ? `?from=${encodeURIComponent(listQuery)}` : "";

  return (
    <>
      {manage ? (
        <div role="group" aria-label="Bulk actions" className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span aria-live="polite">
            {visible.length
              ? `${leads(visible.length)} selected`
              : (outcome ?? "Select leads to assign them, set their status or delete them.")}
          </span>
          {visible.length ? (
            <BulkOwnership
              slug={slug}
              ids={visible}
              members={manage.members}
              onDone={(message) => {
                setSelectedIds(new Set());
                setOutcome(message);
              }}
            />
          ) : null}
          {visible.length ? (
            <ConfirmButton
              label="Delete selected"
              className={buttonClass("danger", "sm")}
              title={`Delete ${leads(visible.length)}?`}
              description="The selected leads are deleted for good. The audit log records their ids and the count."
              confirmLabel={`Delete ${leads(visible.length)}`}
              pendingLabel="Deleting…"
              action={async () => {
                const result = await deleteLeadsAction(slug, visible);
                if (result.ok) setSelected(new Set());
                return result;
              }}
            >
              Delete selected
            </ConfirmButton>
          ) : null}
          {manage.narrowed && manage.count > 0 && !manage.capped ? (
            <ConfirmButton
              label={`Delete all ${leads(manage.count)} matching`}
              className={buttonClass("secondary", "sm")}
              title={`Delete all ${leads(manage.count)} matching this search and filter?`}
              description={`Every one of the ${leads(manage.count)} that match, on every page, is deleted for good.`}
              confirmLabel={`Delete ${leads(manage.count)}`}
              pendingLabel="Deleting…"
              action={async () => {
                const result = await deleteMatchingLeadsAction(slug, listQuery, manage.count);
                if (result.ok) setSelected(new Set());
                return result;
              }}
            >
              Delete all {leads(manage.count)} matching
            </ConfirmButton>
          ) : null}
        </div>
      ) : null}
      <div className={`${cardClass} overflow-x-auto`}>
        <table className="min-w-full divide-y divide-slate-200">
          <caption className="sr-only">Leads, {sortLabel}</caption>
          <thead className="bg-slate-50">
            <tr>
              {manage ? (
                <td className="w-10 px-4 py-3">
                  <input
                    type="checkbox"
                    aria-label="Select all leads on this page"
                    className={checkbox}
                    checked={allSelected}
                    onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((lead) => lead.id)) : new Set())}
                  />
                </td>
              ) : null}
              <th scope="col" className={`${th} ${wide}`}>
                ID
              </th>
              <th scope="col" className={th}>
                Name
              </th>
              <th scope="col" className={`${th} ${wide}`}>
                Organization
              </th>
              <th scope="col" className={th}>
                Email<span className="sm:hidden"> · Created</span>
              </th>
              <th scope="col" className={`${th} ${wide}`}>
                Status
              </th>
              <th scope="col" className={`${th} ${wide}`}>
                Owner
              </th>
              <th scope="col" className={`${th} ${wide}`}>
                Source
              </th>
              <th scope="col" className={`${th} ${wide}`}>
                Created
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((lead) => (
              <tr key={lead.id} className="hover:bg-slate-50">
                {manage ? (
                  <td className="w-10 px-4 py-3">
                    <input
                      type="checkbox"
                      aria-label={`Select ${lead.id}`}
                      className={checkbox}
                      checked={selected.has(lead.id)}
                      onChange={(event) => toggle(lead.id, event.target.checked)}
                    />
                  </td>
                ) : null}
                <td className={`${td} ${wide} font-mono text-xs whitespace-nowrap`}>{lead.id}</td>
                <th scope="row" className={`${td} text-left font-normal [overflow-wrap:anywhere]`}>
                  <div className="flex max-w-40 flex-wrap items-center gap-2 sm:max-w-none">
                    <Link href={`/t/${slug}/leads/${lead.id}${from}`} className={linkClass}>
                      {lead.name}
                    </Link>
                    {lead.possibleDuplicate ? <Badge tone="amber">Possible duplicate</Badge> : null}
                    {lead.submissions > 1 ? <Badge tone="slate">{`${lead.submissions.toLocaleString("en-US")} submissions`}</Badge> : null}
                  </div>
                </th>
                <td className={`${td} ${wide}`}>{lead.organization}</td>
                <td className={`${td} [overflow-wrap:anywhere]`}>
                  {lead.email ?? <span className="text-slate-400">—</span>}
                  <div className="mt-0.5 text-xs text-slate-500 sm:hidden">
                    <DateTime value={lead.createdAt} />
                  </div>
                </td>
                <td className={`${td} ${wide} whitespace-nowrap`}>
                  {LEAD_STATUS_LABELS[lead.status]}
                  {lead.status === NEW_LEAD_STATUS ? (
                    <span className="block text-xs text-slate-600">{waitingTime(lead.createdAt, now)}</span>
                  ) : null}
                </td>
                <td className={`${td} ${wide} [overflow-wrap:anywhere]`}>
                  {lead.owner ? (
                    (lead.owner.name ?? lead.owner.email)
                  ) : (
                    <span className="whitespace-nowrap text-slate-500">Unassigned</span>
                  )}
                </td>
                <td className={`${td} ${wide}`}>
                  <Badge tone="indigo">{lead.source}</Badge>
                </td>
                <td className={`${td} ${wide} whitespace-nowrap`}>
                  <DateTime value={lead.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
