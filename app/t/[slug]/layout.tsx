import { requireTeamPage } from "@/lib/auth/require-team-role";
import { listTeamsForUser } from "@/lib/teams/team-store";
import { AppHeader } from "@/components/layout/app-header";

export default async function TeamLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { user, team, role } = await requireTeamPage(slug, `/t/${slug}/leads`);
  const teams = await listTeamsForUser(user.id);
  return (
    <div className="min-h-screen">
      <AppHeader user={user} team={{ slug: team.slug, name: team.name, role }} teams={teams} />
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-8 outline-none sm:px-6 lg:px-8">
        {children}
      </main>
    </div>
  );
}
