import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { now } from "@/lib/time/clock";
import { listAttempts } from "@/lib/webhooks/delivery-attempt-store";
import { maskWebhookUrl } from "@/lib/webhooks/masked-url";
import { findEndpoint } from "@/lib/webhooks/webhook-endpoint-store";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { DetailCard } from "@/components/settings/detail-card";
import { SectionHeader } from "@/components/settings/section-header";
import { DateTime } from "@/components/ui/date-time";
import { DeliveryLogTable } from "@/components/webhooks/delivery-log-table";
import { EndpointControls } from "@/components/webhooks/endpoint-controls";
import { EndpointStatus } from "@/components/webhooks/endpoint-status";

export const metadata: Metadata = { title: "Webhook endpoint · Lead Intake" };

export default async function WebhookEndpointPage(props: { params: Promise<{ slug: string; endpointId: string }> }) {
  const { slug, endpointId } = await props.params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/webhooks/${endpointId}`);
  // Tenant ownership is in the query: another team's endpoint is simply not found.
  const endpoint = await findEndpoint({ id: endpointId, teamId: team.id });
  if (!endpoint) notFound();
  const attempts = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
  // The full URL (it may carry a secret) only for owners and admins; members see it masked.
  const shownUrl = canManage ? endpoint.url : maskWebhookUrl(endpoint.url);

  return (
    <section>
      <Breadcrumb href={`/t/${team.slug}/settings/webhooks`}>← Webhooks</Breadcrumb>
      <SectionHeader
        title={`Webhook endpoint ${endpoint.description ?? ""}`.trim()}
        description={<span className="break-all">{shownUrl}</span>}
      />
      <DetailCard
        facts={[
          { term: "Status", detail: <EndpointStatus endpoint={endpoint} />, className: "mt-1" },
          { term: "Events", detail: endpoint.events.join(", "), className: "mt-1 font-mono text-slate-700" },
          {
            term: endpoint.failingSince ? "Failing since" : "Added",
            detail: <DateTime value={endpoint.failingSince ?? endpoint.createdAt} />,
          },
        ]}
        previous={{
          text: "The previous signing secret also signs deliveries until",
          until: endpoint.previousSecretExpiresAt,
          how: "rotated",
        }}
        now={now()}
      >
        {canManage ? (
          <EndpointControls
            slug={team.slug}
            endpointId={endpoint.id}
            enabled={endpoint.enabled}
            fields={{ url: endpoint.url, description: endpoint.description, events: endpoint.events }}
          />
        ) : null}
      </DetailCard>
      <h3 className="mb-3 text-base font-semibold text-slate-900">Delivery log</h3>
      <DeliveryLogTable slug={team.slug} endpointId={endpoint.id} rows={attempts} canManage={canManage} />
    </section>
  );
}
