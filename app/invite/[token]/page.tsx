import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AcceptAsSignedInForm, CreateAccountForm } from "@/components/auth/accept-invite-form";
import { signInToAccept } from "@/components/auth/invite-links";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { currentUser } from "@/lib/auth/session";
import { findOpenInvite } from "@/lib/teams/accept-invite";

export const metadata: Metadata = { title: "Join a team · Lead Intake", referrer: "no-referrer" };

const ROLE = { owner: "an owner", admin: "an admin", member: "a member" } as const;

// Whether the invited address has an account is never looked up here: a signed-out visitor
// gets the same page either way (docs/security.md "Invites").
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invite, user] = await Promise.all([findOpenInvite(token), currentUser()]);
  // Unknown, used, revoked, replaced or expired: 404, with ./not-found.tsx saying so.
  if (!invite) notFound();
  return (
    <AuthCard
      title={`Join ${invite.team.name}`}
      subtitle={
        <>
          You were invited as {ROLE[invite.role]} with <strong className="font-medium text-slate-800">{invite.email}</strong>.
        </>
      }
    >
      {!user ? (
        <CreateAccountForm token={token} email={invite.email} />
      ) : user.email === invite.email ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">You are signed in as {user.email}.</p>
          <AcceptAsSignedInForm token={token} />
        </div>
      ) : (
        <div className="space-y-4">
          <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
            This invite is for {invite.email}, but you are signed in as {user.email}. Sign out and sign in with {invite.email} to accept it.
          </p>
          <SignOutButton callbackUrl={signInToAccept(token)} label={`Sign out ${user.email}`} />
        </div>
      )}
    </AuthCard>
  );
}
