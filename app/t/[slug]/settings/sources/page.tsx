import type { Metadata } from "next";
import Link from "next/link";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { listLeadSources } from "@/lib/teams/lead-sources";
import { AddSourceForm } from "@/components/settings/add-source-form";
import { DeleteSourceButton } from "@/components/settings/delete-source-button";
import { SectionHeader } from "@/components/settings/section-header";
import { Badge } from "@/components/ui/badge";
import { cardClass, linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Lead Sources · Team Settings · Lead Intake" };

export default async function SourcesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/sources`);
  const sources = await listLeadSources(team.id);
  return (
    <section>
      <SectionHeader
        title="Lead Sources"
        description='A lead sent with source=<name> is filed under that source (case-insensitive); unknown or missing names fall back to "API".'
      />
      <div className="max-w-2xl space-y-6">
        <ul aria-label="Lead sources" className={`${cardClass} divide-y divide-slate-100`}>
          {sources.map((source) => (
            <li key={source.id} className="flex items-center justify-between gap-4 px-5 py-3">
              <div className="flex min-w-0 items-center gap-2">
                <span className="text-sm font-medium [overflow-wrap:anywhere] text-slate-900">{source.name}</span>
                {source.isApi ? <Badge>Default</Badge> : null}
              </div>
              <div className="flex shrink-0 items-center gap-3">
                <Link
                  href={`/t/${team.slug}/leads?source=${encodeURIComponent(source.id)}`}
                  className={`${linkClass} text-xs whitespace-nowrap`}
                >
                  {source.leadCount === 1 ? "1 lead" : `${source.leadCount} leads`}
                </Link>
                {canManage && !source.isApi ? <DeleteSourceButton slug={team.slug} sourceId={source.id} name={source.name} /> : null}
              </div>
            </li>
          ))}
        </ul>
        {canManage ? (
          <AddSourceForm slug={team.slug} />
        ) : (
          <p className="text-sm text-slate-600">Only owners and admins can add or delete sources.</p>
        )}
      </div>
    </section>
  );
}
