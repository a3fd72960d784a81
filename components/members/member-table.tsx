import type { Member } from "@/lib/teams/team-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";
import { RemoveMemberButton } from "./remove-member-button";
import { RoleSelect } from "./role-select";
import { ROLE_LABEL } from "./role-label";

const th = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";

/** The team's members; owners (canManage) also get role and remove controls. */
export function MemberTable(props: { slug: string; members: Member[]; currentUserId: string; canManage: boolean }) {
  return (
    // relative: the sr-only "Actions" header is absolutely positioned and would otherwise
    // escape the scroll box and widen the page on a phone.
    <div className={`${cardClass} relative overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Team members</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Member</th>
            <th scope="col" className={th}>Role</th>
            <th scope="col" className={th}>Joined</th>
            {props.canManage ? (
              <th scope="col" className={th}>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {props.members.map((member) => (
            <tr key={member.userId}>
              <th scope="row" className="px-4 py-3 text-left text-sm font-normal">
                <div className="font-medium text-slate-900">
                  {member.name ?? member.email}
                  {member.userId === props.currentUserId ? <span className="ml-1 font-normal text-slate-500">(you)</span> : null}
                </div>
                {member.name ? <div className="text-slate-500">{member.email}</div> : null}
              </th>
              <td className="px-4 py-3 text-sm">
                {props.canManage ? (
                  <RoleSelect slug={props.slug} userId={member.userId} email={member.email} role={member.role} />
                ) : (
                  <Badge tone={member.role === "owner" ? "indigo" : "slate"}>{ROLE_LABEL[member.role]}</Badge>
                )}
              </td>
              <td className="px-4 py-3 text-sm whitespace-nowrap text-slate-700">
                <DateTime value={member.joinedAt} />
              </td>
              {props.canManage ? (
                <td className="px-4 py-3 text-right">
                  <RemoveMemberButton slug={props.slug} userId={member.userId} email={member.email} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
