import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { findApiKeyPage } from "@/lib/api-keys/api-key-list";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { env } from "@/lib/env";
import { listRequests } from "@/lib/request-log/request-log-store";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { RequestLog, requestLogCursor } from "@/components/request-log/request-log-table";
import { RepeatsForm } from "@/components/settings/repeats-choice";
import { SectionHeader } from "@/components/settings/section-header";
import { SpamChecksForm } from "@/components/settings/spam-checks-choice";

export const metadata: Metadata = { title: "Request log · API Keys · Lead Intake" };

// Every member who can see the keys sees what each key was sent and answered, what a
// person's repeat submission with it does and whether the spam checks run (owners and admins
// change those two).
export default async function KeyRequestLogPage(props: {
  params: Promise<{ slug: string; keyId: string }>;
  searchParams: Promise<{ before?: string | string[] }>;
}) {
  const { slug, keyId } = await props.params;
  const base = `/t/${slug}/settings/api-keys/${keyId}`;
  const { team, canManage } = await requireTeamPage(slug, base);
  // Tenant ownership is in the query: another team's key is simply not found.
  const key = await findApiKeyPage({ keyId, teamId: team.id });
  if (!key) notFound();
  const cursor = requestLogCursor((await props.searchParams).before);
  const [log, windowDays] = await Promise.all([
    listRequests({ teamId: team.id, of: { apiKeyId: keyId }, before: cursor }),
    teamRepeatWindow(team.id),
  ]);
  const { REQUEST_LOG_RETENTION_DAYS: days, REQUEST_LOG_MAX_ROWS: maxRows } = env();

  return (
    <section>
      <Breadcrumb href={`/t/${team.slug}/settings/api-keys`}>← API Keys</Breadcrumb>
      <SectionHeader
        title={`Request log of ${key.description ?? "key"} ${keyId}`}
        description={`The requests this key authenticated or failed to authenticate: the lead each created, or the status and error it got (a refusal repeated within 10 seconds is shown once). Newest first; kept ${days} days, at most ${maxRows.toLocaleString("en-US")} requests of this key.`}
      />
      <RepeatsForm slug={team.slug} channel="api_key" id={keyId} value={key.repeats} windowDays={windowDays} canEdit={canManage} />
      <SpamChecksForm slug={team.slug} channel="api_key" id={keyId} value={key.spamChecks} canEdit={canManage} />
      <RequestLog slug={team.slug} base={base} cursor={cursor} log={log} />
    </section>
  );
}
