import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { BUILDERS } from "@/lib/connections/builders";
import { findDelivery } from "@/lib/connections/connection-delivery-store";
import { quarantinedAmong } from "@/lib/spam/quarantine-store";
import { findConnection } from "@/lib/connections/connection-store";
import { AnswerList } from "@/components/connections/answer-list";
import { DeliveryControls } from "@/components/connections/delivery-controls";
import { LeadOrReason, OutcomeBadge } from "@/components/connections/delivery-log";
import { keptSize } from "@/components/connections/kept-size";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { DetailCard } from "@/components/settings/detail-card";
import { SectionHeader } from "@/components/settings/section-header";
import { DateTime } from "@/components/ui/date-time";
import { cardClass, focusRingClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Delivery · Connection · Lead Intake" };

const NO_BODY = {
  created: "No body is kept for this delivery: a delivery that made its lead keeps none.",
  needs_mapping: "No body is kept for this delivery.",
  held: "No body is kept for this delivery: a held delivery is sealed until the person confirms by email.",
  refused:
    "No body is kept for this delivery: a refusal before its body was read (a signature, a limit, a connection turned off) keeps none.",
} as const;

/**
 * One delivery of a connection's log, for every member: its facts, its answers (labels and
 * where each went) and the body it keeps, read only here (the connection's page lists
 * summaries). Owners and admins replay or delete a kept one.
 */
export default async function DeliveryPage(props: { params: Promise<{ slug: string; connectionId: string; deliveryId: string }> }) {
  const { slug, connectionId, deliveryId } = await props.params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/connections/${connectionId}/deliveries/${deliveryId}`);
  // Tenant ownership is in both queries: another team's connection or delivery is simply not found.
  const [connection, delivery] = await Promise.all([
    findConnection({ teamId: team.id, id: connectionId }),
    findDelivery({ teamId: team.id, connectionId, id: deliveryId }),
  ]);
  if (!connection || !delivery) notFound();
  const quarantined = (await quarantinedAmong(team.id, [delivery.leadId])).size > 0;

  return (
    <section>
      <Breadcrumb href={`/t/${team.slug}/settings/connections/${connection.id}`}>{`← Connection ${connection.name}`}</Breadcrumb>
      <SectionHeader
        title={`Delivery to ${connection.name}`}
        description={<span className="[overflow-wrap:anywhere]">{`${BUILDERS[connection.builder].name} · ${delivery.id}`}</span>}
      />
      <DetailCard
        facts={[
          { term: "Outcome", detail: <OutcomeBadge delivery={delivery} />, className: "mt-1" },
          { term: "Last attempt", detail: <DateTime value={delivery.lastAttemptAt} /> },
          {
            term: "Attempts",
            detail:
              delivery.attempts === 1 ? (
                "1"
              ) : (
                <>
                  {`${delivery.attempts}, the first `}
                  <DateTime value={delivery.createdAt} />
                </>
              ),
          },
          {
            term: delivery.leadId ? "Lead" : "Reason",
            detail: <LeadOrReason slug={team.slug} delivery={delivery} quarantined={quarantined} />,
            className: "mt-1 text-slate-700 [overflow-wrap:anywhere] sm:col-span-3",
          },
          ...(delivery.submissionId
            ? [
                {
                  term: "Submission",
                  detail: delivery.submissionId,
                  className: "mt-1 font-mono text-xs text-slate-700 break-all sm:col-span-3",
                },
              ]
            : []),
        ]}
      >
        {canManage && delivery.hasPayload ? (
          <DeliveryControls
            slug={team.slug}
            connectionId={connection.id}
            deliveryId={delivery.id}
            replayable={delivery.outcome === "needs_mapping"}
          />
        ) : null}
      </DetailCard>
      <h3 className="mb-3 text-base font-semibold text-slate-900">Answers</h3>
      {delivery.answers.length ? (
        <AnswerList answers={delivery.answers} label="Answers" className="mb-6" />
      ) : (
        <p className={`${cardClass} mb-6 px-5 py-6 text-sm text-slate-600`}>No answers were read from this delivery.</p>
      )}
      <h3 id="delivery-body" className="mb-3 text-base font-semibold text-slate-900">
        Body
      </h3>
      {delivery.payload !== null ? (
        <div className={`${cardClass} space-y-2 px-5 py-4`}>
          <p className="text-sm text-slate-700">
            {`${delivery.contentType ?? "No content type"} · ${keptSize(delivery.keptBytes ?? delivery.payload.length)} kept`}
          </p>
          <pre
            role="region"
            aria-labelledby="delivery-body"
            tabIndex={0}
            className={`max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed whitespace-pre-wrap text-slate-100 [overflow-wrap:anywhere] ${focusRingClass}`}
          >
            {delivery.payload}
          </pre>
        </div>
      ) : (
        <p className={`${cardClass} px-5 py-6 text-sm text-slate-600`}>{NO_BODY[delivery.outcome]}</p>
      )}
    </section>
  );
}
