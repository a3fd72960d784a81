import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { loadOverview } from "@/lib/dashboard/overview-page-data";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { Overview } from "@/components/dashboard/overview";

export const metadata: Metadata = { title: "Overview · Leads · Lead Intake" };

/** Leads → Overview (issue 43; docs/attribution.md "The dashboard"): every member of the team. */
export default async function OverviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/leads/overview`);
  const data = await loadOverview(team.id, await searchParams);
  return (
    <div>
      <Breadcrumb href={`/t/${team.slug}/leads`}>← Leads</Breadcrumb>
      <Overview slug={team.slug} data={data} />
    </div>
  );
}
