import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { listTeamsForUser } from "@/lib/teams/team-store";
import { buttonClass } from "@/components/ui/styles";
import { SignOutButton } from "@/components/auth/sign-out-button";

export default async function Home() {
  const user = await currentUser();
  const teams = user ? await listTeamsForUser(user.id) : [];
  const first = teams[0];
  if (first) redirect(`/t/${first.slug}/leads`);

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Lead Intake</h1>
      <p className="mt-2 text-slate-600">
        Post leads to <code className="rounded bg-slate-200 px-1 break-all">/api/method/crm.api.leads.create_lead</code> with your
        team&apos;s <code>X-API-Key</code> and <code>X-API-Secret</code>. The API is described at{" "}
        <a className="text-blue-700 underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
        .
      </p>
      {user ? (
        <div className="mt-6 space-y-3">
          <p className="text-slate-700">
            You are signed in as {user.email} but are not a member of any team yet. Ask a team owner or admin for an invite link, or create
            a team of your own.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Link href="/teams/new" className={buttonClass("primary")}>
              New team
            </Link>
            <SignOutButton />
          </div>
        </div>
      ) : (
        <Link href="/signin" className={`${buttonClass("primary")} mt-6`}>
          Sign in
        </Link>
      )}
    </main>
  );
}
