import type { Metadata } from "next";
import Link from "next/link";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { BUILDER_IDS, BUILDERS } from "@/lib/connections/builders";
import { deliveryActivity } from "@/lib/connections/connection-delivery-store";
import { listConnections } from "@/lib/connections/connection-store";
import { hoursAgo } from "@/lib/time/clock";
import { ConnectForm } from "@/components/connections/connect-form";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";
import { Badge } from "@/components/ui/badge";
import { cardClass, linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Connections · Lead Intake" };

const deliveries = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "delivery" : "deliveries"}`;

export default async function ConnectionsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/connections`);
  const [connections, activity] = await Promise.all([listConnections(team.id), deliveryActivity(team.id, hoursAgo(24))]);

  return (
    <ApiIntegrationSection
      slug={team.slug}
      title="Connections"
      description={
        canManage
          ? "A connection lets a form builder (Tally, or any tool that sends JSON) post each submission here with its own body and signature: no Zapier in between, no lead lost or doubled."
          : "A connection lets a form builder post each submission here directly. Only owners and admins can connect or change them."
      }
    >
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        {connections.length === 0 ? (
          <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>No connections yet.</p>
        ) : (
          <ul className="space-y-4" aria-label="Connections">
            {connections.map((connection) => {
              const counts = activity.get(connection.id);
              return (
                <li key={connection.id} className={`${cardClass} p-5`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="min-w-0 break-words text-base font-semibold text-slate-900">
                      <Link href={`/t/${team.slug}/settings/connections/${connection.id}`} className={linkClass}>
                        {connection.name}
                      </Link>
                    </h3>
                    {connection.enabled ? <Badge tone="green">On</Badge> : <Badge tone="slate">Off</Badge>}
                  </div>
                  <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
                    <dt className="font-medium text-slate-600">Form builder</dt>
                    <dd className="text-slate-800">{BUILDERS[connection.builder].name}</dd>
                    <dt className="font-medium text-slate-600">URL</dt>
                    <dd>
                      <code className="break-all font-mono text-xs text-slate-800">/api/connections/c_…{connection.tokenHint}</code>
                    </dd>
                    <dt className="font-medium text-slate-600">Last 24 hours</dt>
                    <dd className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-800">
                      <span>{deliveries(counts?.deliveries ?? 0)}</span>
                      {counts?.needsMapping ? <Badge tone="amber">{`${deliveries(counts.needsMapping)} to map`}</Badge> : null}
                    </dd>
                  </dl>
                </li>
              );
            })}
          </ul>
        )}
        {canManage ? (
          <div>
            <h3 className="mb-3 text-base font-semibold text-slate-900">Connect a form builder</h3>
            <ConnectForm slug={team.slug} builders={BUILDER_IDS.map((id) => ({ value: id, label: BUILDERS[id].name }))} />
          </div>
        ) : null}
      </div>
    </ApiIntegrationSection>
  );
}
