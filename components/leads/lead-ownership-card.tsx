import { LeadOwnerForm, LeadStatusForm, TakeLeadForm } from "@/components/leads/lead-ownership-forms";
import { cardClass } from "@/components/ui/styles";
import { LEAD_STATUS_LABELS, NEW_LEAD_STATUS, type LeadStatus } from "@/lib/leads/lead-status";
import { waitingTime } from "@/lib/leads/lead-waiting";
import type { Member } from "@/lib/teams/team-store";

/** A member as the page names them: their name, or their email when they have none. */
const memberLabel = (member: Pick<Member, "name" | "email">) => member.name || member.email;

/**
 * The lead's status and owner (docs/routing.md), and the controls the viewer may use: the
 * status for every member; the owner for owners and admins (`canManage`), "Take this lead"
 * for a member while the lead is unassigned.
 */
export function LeadOwnershipCard({
  slug,
  lead,
  members,
  viewerId,
  canManage,
  now,
}: {
  slug: string;
  lead: { id: string; status: LeadStatus; ownerId: string | null; createdAt: Date };
  members: readonly Member[];
  viewerId: string;
  canManage: boolean;
  now: Date;
}) {
  const owner = lead.ownerId ? members.find((member) => member.userId === lead.ownerId) : undefined;
  const ownerText = lead.ownerId === null ? "Unassigned" : owner ? memberLabel(owner) : "A former member";
  const choices = members.map((member) => ({
    value: member.userId,
    label: member.userId === viewerId ? `${memberLabel(member)} (you)` : memberLabel(member),
  }));
  return (
    <section aria-labelledby="status-and-owner-heading" className={`${cardClass} p-5`}>
      <h2 id="status-and-owner-heading" className="text-sm font-semibold text-slate-900">
        Status and owner
      </h2>
      <dl className="mt-4 grid grid-cols-[6rem_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
        <dt className="text-slate-600">Status</dt>
        <dd className="text-slate-900">
          {LEAD_STATUS_LABELS[lead.status]}
          {lead.status === NEW_LEAD_STATUS ? <span className="text-slate-600"> · {waitingTime(lead.createdAt, now)}</span> : null}
        </dd>
        <dt className="text-slate-600">Owner</dt>
        <dd className="break-words text-slate-900">{ownerText}</dd>
      </dl>
      <div className="mt-5 space-y-4 border-t border-slate-200 pt-4">
        <LeadStatusForm slug={slug} leadId={lead.id} status={lead.status} />
        {canManage ? (
          <LeadOwnerForm slug={slug} leadId={lead.id} ownerId={lead.ownerId} members={choices} />
        ) : (
          <>
            <TakeLeadForm slug={slug} leadId={lead.id} canTake={lead.ownerId === null} />
            {lead.ownerId !== null && lead.ownerId !== viewerId ? (
              <p className="text-sm text-slate-600">Only owners and admins reassign a lead someone owns.</p>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
