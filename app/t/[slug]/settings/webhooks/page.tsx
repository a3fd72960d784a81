import type { Metadata } from "next";
import Link from "next/link";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { maskWebhookUrl } from "@/lib/webhooks/masked-url";
import { listEndpoints } from "@/lib/webhooks/webhook-endpoint-store";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";
import { cardClass, linkClass } from "@/components/ui/styles";
import { AddEndpointDialog } from "@/components/webhooks/add-endpoint-dialog";
import { EndpointStatus } from "@/components/webhooks/endpoint-status";

export const metadata: Metadata = { title: "Webhooks · Lead Intake" };

export default async function WebhooksPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/webhooks`);
  const endpoints = await listEndpoints(team.id);

  return (
    <ApiIntegrationSection
      slug={team.slug}
      title="Webhooks"
      description={
        <>
          Each new lead is POSTed as a signed JSON event to these endpoints, retried for about a day until they answer 2xx.{" "}
          {canManage ? "" : "Only owners and admins can add or change endpoints. "}
          <a href="/api/openapi.json" className={linkClass}>
            Payload schema (OpenAPI)
          </a>
        </>
      }
      action={canManage ? <AddEndpointDialog slug={team.slug} /> : null}
    >
      {endpoints.length === 0 ? (
        <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>No endpoints yet.</p>
      ) : (
        <ul className={`${cardClass} divide-y divide-slate-100`} aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
              <div className="min-w-0">
                <Link href={`/t/${team.slug}/settings/webhooks/${endpoint.id}`} className={`${linkClass} break-all`}>
                  {/* Masked for everyone: only the endpoint's page shows owners and admins the full URL. */}
                  {maskWebhookUrl(endpoint.url)}
                </Link>
                <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
                  {endpoint.description ? `${endpoint.description} · ` : ""}
                  {endpoint.events.join(", ")}
                </p>
              </div>
              <EndpointStatus endpoint={endpoint} />
            </li>
          ))}
        </ul>
      )}
    </ApiIntegrationSection>
  );
}
