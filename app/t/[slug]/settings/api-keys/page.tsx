import { hoursAgo } from "@/lib/time/clock";
import type { Metadata } from "next";
import { listApiKeys } from "@/lib/api-keys/api-key-list";
import { now } from "@/lib/time/clock";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { publicBaseUrl } from "@/lib/http/public-url";
import { requestActivity } from "@/lib/request-log/request-log-store";
import { recentSpamCounts } from "@/lib/spam/quarantine-store";
import { listLeadSources } from "@/lib/teams/lead-sources";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { ApiKeyList } from "@/components/api-keys/api-key-list";
import { EndpointSnippets } from "@/components/api-keys/endpoint-snippets";
import { GenerateKeyDialog } from "@/components/api-keys/generate-key-dialog";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";

export const metadata: Metadata = { title: "API Keys · Lead Intake" };

export default async function ApiKeysPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/api-keys`);
  const [keys, baseUrl, activity, sources, windowDays, spam] = await Promise.all([
    listApiKeys(team.id),
    publicBaseUrl(),
    requestActivity(team.id, hoursAgo(24), "apiKeyId"),
    listLeadSources(team.id),
    teamRepeatWindow(team.id),
    recentSpamCounts(team.id, "apiKeyId"),
  ]);
  // The examples name a source the team has (not API, the fallback), or none.
  const exampleSource = sources.find((s) => !s.isApi)?.name ?? null;

  return (
    <ApiIntegrationSection
      slug={team.slug}
      title="API Keys"
      description={
        canManage
          ? "Keys let your website forms and other systems create leads in this team. Each secret can be copied once; after that it is shown masked."
          : "Keys let your website forms and other systems create leads in this team. You can copy a secret that nobody has copied yet; only owners and admins can generate or delete keys."
      }
      action={canManage ? <GenerateKeyDialog slug={team.slug} windowDays={windowDays} /> : null}
    >
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <ApiKeyList slug={team.slug} keys={keys} canManage={canManage} activity={activity} now={now()} spam={spam} />
        <EndpointSnippets baseUrl={baseUrl} keyIds={keys.map((k) => k.keyId)} source={exampleSource} />
      </div>
    </ApiIntegrationSection>
  );
}
