import { requireTeamPage } from "@/lib/auth/require-team-role";
import { SettingsNav } from "@/components/settings/settings-nav";

export default async function SettingsLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { canManage } = await requireTeamPage(slug, `/t/${slug}/settings`);
  return (
    <div>
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Team Settings</h1>
        <p className="mt-1 text-sm text-slate-600">Manage your team, its members, lead sources and API access.</p>
      </div>
      <div className="flex flex-col gap-8 lg:flex-row">
        <SettingsNav slug={slug} canManage={canManage} />
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </div>
  );
}
