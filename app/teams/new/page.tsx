import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { NewTeamForm } from "@/components/teams/new-team-form";
import { linkClass } from "@/components/ui/styles";
import { currentUser } from "@/lib/auth/session";
import { TEAM_NAME_MAX } from "@/lib/teams/team-changes";

export const metadata: Metadata = { title: "New team · Lead Intake" };

export default async function NewTeamPage() {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/teams/new")}`);
  return (
    <AuthCard
      title="New team"
      subtitle={
        <>
          You ({user.email}) will be its owner. It starts with the lead source <strong className="font-medium">API</strong>; invite members
          and generate keys in its settings.
        </>
      }
    >
      <NewTeamForm maxLength={TEAM_NAME_MAX} />
      <p className="mt-4 text-sm text-slate-600">
        <Link href="/" className={linkClass}>
          Cancel
        </Link>
      </p>
    </AuthCard>
  );
}
