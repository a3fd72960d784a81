import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { BUILDER_IDS, BUILDERS } from "@/lib/connections/builders";
import { deliveryActivity } from "@/lib/connections/connection-delivery-store";
import { listConnections, type ConnectionView } from "@/lib/connections/connection-store";
import { recentSpamCounts } from "@/lib/spam/quarantine-store";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { hoursAgo } from "@/lib/time/clock";
import { ConnectForm } from "@/components/connections/connect-form";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";
import { IntegrationCards, type IntegrationCard } from "@/components/settings/integration-cards";

export const metadata: Metadata = { title: "Connections · Lead Intake" };

const deliveries = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "delivery" : "deliveries"}`;

/** A connection's card: its form builder, its URL's last characters, its deliveries and quarantined submissions of the last 24 hours. */
const connectionCard = (
  slug: string,
  connection: ConnectionView,
  counts: { deliveries: number; needsMapping: number } | undefined,
  spam: number | undefined,
): IntegrationCard => ({
  id: connection.id,
  href: `/t/${slug}/settings/connections/${connection.id}`,
  name: connection.name,
  enabled: connection.enabled,
  facts: [
    { term: "Form builder", text: BUILDERS[connection.builder].name },
    { term: "URL", code: `/api/connections/c_…${connection.tokenHint}` },
  ],
  activity: {
    total: deliveries(counts?.deliveries ?? 0),
    alert: counts?.needsMapping ? { tone: "amber", text: `${deliveries(counts.needsMapping)} to map` } : null,
  },
  spam: { slug, count: spam },
});

export default async function ConnectionsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/connections`);
  const [connections, activity, windowDays, spam] = await Promise.all([
    listConnections(team.id),
    deliveryActivity(team.id, hoursAgo(24)),
    teamRepeatWindow(team.id),
    recentSpamCounts(team.id, "connectionId"),
  ]);

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
      <IntegrationCards
        label="Connections"
        empty="No connections yet."
        states={["On", "Off"]}
        cards={connections.map((connection) => connectionCard(team.slug, connection, activity.get(connection.id), spam.get(connection.id)))}
        aside={
          canManage
            ? {
                title: "Connect a form builder",
                content: (
                  <ConnectForm
                    slug={team.slug}
                    builders={BUILDER_IDS.map((id) => ({ value: id, label: BUILDERS[id].name }))}
                    windowDays={windowDays}
                  />
                ),
              }
            : null
        }
      />
    </ApiIntegrationSection>
  );
}
