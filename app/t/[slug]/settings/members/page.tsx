import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { listPendingInvites } from "@/lib/teams/invite-store";
import { listMembers } from "@/lib/teams/team-store";
import { InviteForm } from "@/components/members/invite-form";
import { MemberTable } from "@/components/members/member-table";
import { PendingInvites } from "@/components/members/pending-invites";
import { SectionHeader } from "@/components/settings/section-header";

export const metadata: Metadata = { title: "Members · Team Settings · Lead Intake" };

export default async function MembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, role, user, canManage: canInvite } = await requireTeamPage(slug, `/t/${slug}/settings/members`);
  const [members, invites] = await Promise.all([listMembers(team.id), canInvite ? listPendingInvites(team.id) : []]);
  return (
    <section className="space-y-8">
      <SectionHeader
        title="Members"
        description="Owners manage members and roles. Owners and admins invite people, manage lead sources and API keys. Members view leads and keys and can copy a secret once."
      />
      {canInvite ? <InviteForm slug={team.slug} canInviteOwners={role === "owner"} /> : null}
      <MemberTable slug={team.slug} members={members} currentUserId={user.id} canManage={role === "owner"} />
      {canInvite ? <PendingInvites slug={team.slug} invites={invites} /> : null}
    </section>
  );
}
