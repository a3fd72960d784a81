import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { BUILDERS, secretOptional, secretSetByTeam } from "@/lib/connections/builders";
import { keptUsage, latestAnswers, listDeliveries } from "@/lib/connections/connection-delivery-store";
import { quarantinedAmong } from "@/lib/spam/quarantine-store";
import { findConnection } from "@/lib/connections/connection-store";
import { deliveryCursorQuery, parseDeliveryCursor } from "@/lib/connections/delivery-cursor";
import { KEPT_BYTES_PER_CONNECTION } from "@/lib/connections/kept-deliveries";
import { TARGET_LABELS, LEAD_FIELD_TARGETS } from "@/lib/imports/column-mapping";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { findChannelConsent, listConsentVersions } from "@/lib/consent/consent-version-store";
import { now } from "@/lib/time/clock";
import { AnswerList } from "@/components/connections/answer-list";
import { ConnectionControls } from "@/components/connections/connection-controls";
import { DeliveryLog } from "@/components/connections/delivery-log";
import { keptSize } from "@/components/connections/kept-size";
import { MappingEditor, type TargetChoice } from "@/components/connections/mapping-editor";
import { SecretForm } from "@/components/connections/secret-form";
import { ConsentEditor, ConsentVersions } from "@/components/web-forms/consent-editor";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { DetailCard } from "@/components/settings/detail-card";
import { RepeatsForm } from "@/components/settings/repeats-choice";
import { SectionHeader } from "@/components/settings/section-header";
import { SpamChecksForm } from "@/components/settings/spam-checks-choice";
import { OnOffBadge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { NewestOlderNav } from "@/components/ui/newest-older-nav";
import { cardClass, linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Connection · Lead Intake" };

const TARGETS: TargetChoice[] = [
  ...LEAD_FIELD_TARGETS.map(([value, label]) => ({ value, label })),
  { value: "extra", label: "Extra field (named as the question)" },
  { value: "consent", label: "Consent (the evidence; kept as an extra field too)" },
  { value: "ignore", label: TARGET_LABELS.ignore },
];

/** The log's page size: summaries only, a body is read on its delivery's page (issue 40). */
const DELIVERIES_PER_PAGE = 50;

export default async function ConnectionPage(props: {
  params: Promise<{ slug: string; connectionId: string }>;
  searchParams: Promise<{ at?: string | string[]; older?: string | string[] }>;
}) {
  const { slug, connectionId } = await props.params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/connections/${connectionId}`);
  // Tenant ownership is in the query: another team's connection is simply not found.
  const connection = await findConnection({ teamId: team.id, id: connectionId });
  if (!connection) notFound();
  const cursor = parseDeliveryCursor(await props.searchParams);
  const consentChannel = { kind: "connection", id: connection.id } as const;
  const [log, kept, answers, windowDays, consent, consentVersions] = await Promise.all([
    listDeliveries({ teamId: team.id, connectionId: connection.id, take: DELIVERIES_PER_PAGE, after: cursor }),
    keptUsage(connection.id, null),
    latestAnswers(connection.id),
    teamRepeatWindow(team.id),
    findChannelConsent({ teamId: team.id, channel: consentChannel }),
    listConsentVersions({ teamId: team.id, channel: consentChannel }),
  ]);
  const quarantined = await quarantinedAmong(
    team.id,
    log.rows.map((row) => row.leadId),
  );
  const base = `/t/${team.slug}/settings/connections/${connection.id}`;

  return (
    <section>
      <Breadcrumb href={`/t/${team.slug}/settings/connections`}>← Connections</Breadcrumb>
      <SectionHeader
        title={`Connection ${connection.name}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span>{`${BUILDERS[connection.builder].name} · /api/connections/c_…${connection.tokenHint}`}</span>
            <Link href={`/t/${team.slug}/leads?connection=${encodeURIComponent(connection.id)}`} className={linkClass}>
              Leads from this connection
            </Link>
          </span>
        }
      />
      <DetailCard
        facts={[
          { term: "Status", detail: <OnOffBadge on={connection.enabled} labels={["On", "Off"]} />, className: "mt-1" },
          { term: "Form builder", detail: BUILDERS[connection.builder].name },
          { term: "Made", detail: <DateTime value={connection.createdAt} /> },
        ]}
        previous={{ text: "The previous URL also works until", until: connection.previousTokenExpiresAt, how: "rolled" }}
        now={now()}
      >
        {canManage ? (
          <ConnectionControls
            slug={team.slug}
            connectionId={connection.id}
            name={connection.name}
            enabled={connection.enabled}
            builder={connection.builder}
          />
        ) : null}
      </DetailCard>
      {canManage && secretSetByTeam(connection.builder) ? (
        <section aria-labelledby="connection-secret-title" className={`${cardClass} mb-6 px-5 py-4`}>
          <h3 id="connection-secret-title" className="mb-3 text-base font-semibold text-slate-900">
            {secretOptional(connection.builder) ? "Secret header (optional)" : "Signing secret"}
          </h3>
          <SecretForm
            slug={team.slug}
            connectionId={connection.id}
            builderName={BUILDERS[connection.builder].name}
            optional={secretOptional(connection.builder)}
            isSet={connection.hasSigningSecret}
          />
        </section>
      ) : null}
      <RepeatsForm
        slug={team.slug}
        channel="connection"
        id={connection.id}
        value={connection.repeats}
        windowDays={windowDays}
        canEdit={canManage}
      />
      <SpamChecksForm slug={team.slug} channel="connection" id={connection.id} value={connection.spamChecks} canEdit={canManage} />
      <div className="mb-6">
        {canManage ? (
          <ConsentEditor
            slug={team.slug}
            channel="connection"
            formId={connection.id}
            current={consent}
            doubleOptIn={connection.doubleOptIn}
          />
        ) : (
          <p className="text-sm text-slate-700">
            {consent ? `Records consent: ${consent.purpose} (${consent.required ? "required" : "optional"}).` : "Records no consent."}
          </p>
        )}
        <ConsentVersions versions={consentVersions} currentId={consent?.id ?? null} />
      </div>
      <h3 className="mb-3 text-base font-semibold text-slate-900">Mapping</h3>
      {answers.length === 0 ? (
        <p className={`${cardClass} mb-6 px-5 py-8 text-center text-sm text-slate-600`}>
          The questions show here after the first delivery.
        </p>
      ) : canManage ? (
        <div className="mb-6">
          <MappingEditor slug={team.slug} connectionId={connection.id} answers={answers} overrides={connection.mapping} targets={TARGETS} />
        </div>
      ) : (
        <AnswerList answers={answers} label="Mapping" className="mb-6" />
      )}
      <h3 id="delivery-log" className="mb-3 text-base font-semibold text-slate-900">
        Delivery log
      </h3>
      {kept.rows > 0 ? (
        <p className="mb-3 text-sm text-slate-700">
          {`${kept.rows} ${kept.rows === 1 ? "delivery" : "deliveries"} kept, ${keptSize(kept.bytes)} of ${keptSize(KEPT_BYTES_PER_CONNECTION)}`}
        </p>
      ) : null}
      <DeliveryLog
        slug={team.slug}
        connectionId={connection.id}
        rows={log.rows}
        quarantined={quarantined}
        canManage={canManage}
        older={cursor !== null}
      />
      <NewestOlderNav
        label="Delivery log pages"
        newestHref={cursor ? `${base}#delivery-log` : null}
        olderHref={log.next ? `${base}?${deliveryCursorQuery(log.next)}#delivery-log` : null}
        olderText="Older deliveries →"
      />
    </section>
  );
}
