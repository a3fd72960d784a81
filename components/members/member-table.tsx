import type { Member } from "@/lib/teams/team-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";
import { RemoveMemberButton } from "./remove-member-button";
import { RoleSelect } from "./role-select";
import { ROLE_LABEL } from "./role-label";
import { TableHead } from "@/components/ui/table-head";

const th = "px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4";
// On a phone the role control stays in view: the join date moves under the member, and
// long addresses wrap.
const wide = "hidden sm:table-cell";

/** The team's members; owners (canManage) also get role and remove controls. */
export function MemberTable(props: { slug: string; members: Member[]; currentUserId: string; canManage: boolean }) {
  return (
    // relative: the sr-only "Actions" header is absolutely positioned and would otherwise
    // escape the scroll box and widen the page on a phone.
    <div className={`${cardClass} relative overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Team members</caption>
        <TableHead
          thClassName={th}
          columns={[
            "Member",
            "Role",
            { label: "Joined", className: wide },
            props.canManage && { label: <span className="sr-only">Actions</span>, className: "" },
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {props.members.map((member) => (
            <tr key={member.userId}>
              <th scope="row" className="px-3 py-3 text-left text-sm font-normal [overflow-wrap:anywhere] sm:px-4">
                <div className="font-medium text-slate-900">
                  {member.name ?? member.email}
                  {member.userId === props.currentUserId ? <span className="ml-1 font-normal text-slate-500">(you)</span> : null}
                </div>
                {member.name ? <div className="text-slate-500">{member.email}</div> : null}
                <div className="mt-0.5 text-xs text-slate-500 sm:hidden">
                  Joined <DateTime value={member.joinedAt} />
                </div>
              </th>
              <td className="px-3 py-3 text-sm sm:px-4">
                {props.canManage ? (
                  <RoleSelect slug={props.slug} userId={member.userId} email={member.email} role={member.role} />
                ) : (
                  <Badge tone={member.role === "owner" ? "indigo" : "slate"}>{ROLE_LABEL[member.role]}</Badge>
                )}
              </td>
              <td className={`${wide} px-4 py-3 text-sm whitespace-nowrap text-slate-700`}>
                <DateTime value={member.joinedAt} />
              </td>
              {props.canManage ? (
                <td className="px-3 py-3 text-right sm:px-4">
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
