import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { AuthCard } from "@/components/auth/auth-card";
import { linkClass } from "@/components/ui/styles";
import { findOpenInvite } from "@/lib/teams/invite-store";

export const metadata: Metadata = { title: "Join a team · Lead Intake", referrer: "no-referrer" };

const ROLE = { owner: "an owner", admin: "an admin", member: "a member" } as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await findOpenInvite(token);
  if (!invite) {
    return (
      <AuthCard title="Invite not valid" subtitle="This invite link is invalid, has expired or was already used.">
        <p className="text-sm text-slate-600">
          Ask a team owner or admin for a new link, or{" "}
          <Link href="/signin" className={linkClass}>
            sign in
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={`Join ${invite.team.name}`}
      subtitle={
        <>
          You were invited as {ROLE[invite.role]} with <strong className="font-medium text-slate-800">{invite.email}</strong>.
        </>
      }
    >
      <AcceptInviteForm token={token} email={invite.email} hasAccount={invite.hasAccount} />
    </AuthCard>
  );
}
