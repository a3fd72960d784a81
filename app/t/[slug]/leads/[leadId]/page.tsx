import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { findApiKeyDescription, listApiKeyLabels } from "@/lib/api-keys/api-key-list";
import { webFormNames } from "@/lib/web-forms/web-form-store";
import { findConnection, listConnectionLabels } from "@/lib/connections/connection-store";
import { importFileNames } from "@/lib/imports/import-store";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { listQueryString, parseListPosition } from "@/lib/leads/lead-filter";
import { formatPhone } from "@/lib/leads/format-phone";
import { findPossibleDuplicates } from "@/lib/leads/duplicate-store";
import { findLead } from "@/lib/leads/lead-store";
import { SUBMISSIONS_SHOWN, type LeadSubmissionItem } from "@/lib/leads/lead-submission-store";
import { findLeadTimeline } from "@/lib/leads/lead-timeline";
import { isLeadStatus, NEW_LEAD_STATUS } from "@/lib/leads/lead-status";
import { listMembers } from "@/lib/teams/team-store";
import { now } from "@/lib/time/clock";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { DeleteLeadButton } from "@/components/leads/delete-lead-button";
import { ReportSpamButton } from "@/components/spam/report-spam-button";
import { DetailCard, type DetailRow } from "@/components/leads/detail-card";
import { DuplicateList } from "@/components/leads/duplicate-list";
import { ExtraFields } from "@/components/leads/extra-fields";
import { LeadOwnershipCard } from "@/components/leads/lead-ownership-card";
import { LeadTimelineSection } from "@/components/leads/lead-timeline";
import { attributionRows } from "@/lib/attribution/attribution-rows";
import { SubmissionList, type SubmissionItem } from "@/components/leads/submission-list";
import { ConsentSection } from "@/components/leads/consent-section";
import { findLeadConsents } from "@/lib/consent/lead-consent-store";
import { leadConfirmations } from "@/lib/consent/consent-confirmation-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";

export const metadata: Metadata = { title: "Lead · Lead Intake" };

/** A phone or website that was skipped as invalid still shows what the person typed. */
const skipped = (kind: string, raw: string | null) => (raw === null ? null : `not a valid ${kind}: ${raw}`);

/** A name and its id ("Contact (form_…)"), or "Deleted …" with the id when it is gone. */
const named = (id: string, name: string | undefined, gone: string) => `${name ?? gone} (${id})`;

/** The submissions' keys, forms, connections and imports by their names: one read per kind the list names. */
async function submissionItems(teamId: string, submissions: LeadSubmissionItem[]): Promise<SubmissionItem[]> {
  const ids = (pick: (s: LeadSubmissionItem) => string | null) => [...new Set(submissions.flatMap((s) => pick(s) ?? []))];
  const [keyIds, formIds, connectionIds, importIds] = [
    ids((s) => s.apiKeyId),
    ids((s) => s.formId),
    ids((s) => s.connectionId),
    ids((s) => s.importId),
  ];
  const [keys, forms, connections, imports] = await Promise.all([
    keyIds.length ? listApiKeyLabels(teamId) : [],
    webFormNames(teamId, formIds),
    connectionIds.length ? listConnectionLabels(teamId) : [],
    importFileNames(teamId, importIds),
  ]);
  const keyNames = new Map(keys.map((key) => [key.keyId, key.description]));
  const connectionNames = new Map(connections.map((connection) => [connection.id, connection.name]));
  const label = (s: LeadSubmissionItem): string | null => {
    if (s.channel === "connection" && s.connectionId)
      return named(s.connectionId, connectionNames.get(s.connectionId), "Deleted connection");
    if (s.channel === "import" && s.importId) return named(s.importId, imports.get(s.importId), "Deleted import");
    if (s.channel === "form" && s.formId) return named(s.formId, forms.get(s.formId), "Deleted form");
    if (!s.apiKeyId) return null;
    // As the lead's own key is named below: its id and description, or that it was deleted.
    if (!keyNames.has(s.apiKeyId)) return `${s.apiKeyId} (deleted)`;
    const description = keyNames.get(s.apiKeyId);
    return description ? `${s.apiKeyId} (${description})` : s.apiKeyId;
  };
  return submissions.map((s) => ({ id: s.id, channel: s.channel, label: label(s), createdAt: s.createdAt }));
}

export default async function LeadPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; leadId: string }>;
  searchParams: Promise<{ from?: string | string[] }>;
}) {
  const { slug, leadId } = await params;
  const { user, team, canManage } = await requireTeamPage(slug, `/t/${slug}/leads/${leadId}`);
  const { from } = await searchParams;
  // "← Leads" returns to the list's search, filter and page, rebuilt from parsed values.
  const listQuery = typeof from === "string" ? listQueryString(parseListPosition(new URLSearchParams(from))) : "";
  const backHref = `/t/${team.slug}/leads${listQuery ? `?${listQuery}` : ""}`;
  // Tenant ownership is in the query: another team's lead id is simply not found.
  const lead = await findLead({ id: leadId, teamId: team.id });
  if (!lead) notFound();
  const [duplicates, key, formNames, connection, members, timeline, consents, confirmations] = await Promise.all([
    findPossibleDuplicates(lead),
    lead.apiKeyId ? findApiKeyDescription({ keyId: lead.apiKeyId, teamId: team.id }) : null,
    webFormNames(team.id, lead.formId ? [lead.formId] : []),
    lead.connectionId ? findConnection({ teamId: team.id, id: lead.connectionId }) : null,
    listMembers(team.id),
    findLeadTimeline({ teamId: team.id, leadId: lead.id }),
    findLeadConsents({ teamId: team.id, leadId: lead.id }),
    leadConfirmations({ teamId: team.id, leadId: lead.id }),
  ]);
  // Every submission the timeline read, named once: the Submissions card lists the newest of them.
  const submissionList = await submissionItems(team.id, timeline.submissions);
  const submissionLabels = new Map(submissionList.map((submission) => [submission.id, submission.label]));
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(" ");

  const contact: DetailRow[] = [
    ["First name", lead.firstName],
    ["Last name", lead.lastName],
    ["Email", lead.email],
    ["Phone", formatPhone(lead.phone) ?? skipped("number", lead.skippedPhone)],
    ["Mobile", formatPhone(lead.mobileNo) ?? skipped("number", lead.skippedMobileNo)],
  ];
  const organization: DetailRow[] = [
    ["Organization", lead.organization],
    ["Job title", lead.jobTitle],
    ["Website", lead.website ?? skipped("URL", lead.skippedWebsite)],
    ["Industry", lead.industry],
    ["Territory", lead.territory],
    ["Annual revenue", lead.annualRevenue],
    ["No. of employees", lead.noOfEmployees],
    ["Currency", lead.currency],
  ];
  const mergedIds = Array.isArray(lead.mergedLeadIds) ? lead.mergedLeadIds.filter((id): id is string => typeof id === "string") : [];
  const keyLabel = lead.apiKeyId ? `${lead.apiKeyId}${key ? (key.description ? ` (${key.description})` : "") : " (deleted)"}` : null;
  const formLabel = lead.formId ? `${formNames.get(lead.formId) ?? "Deleted form"} (${lead.formId})` : null;
  const connectionLabel = lead.connectionId ? `${connection?.name ?? "Deleted connection"} (${lead.connectionId})` : null;
  const attribution: DetailRow[] = [
    ["Source", lead.source.name],
    ["UTM source", lead.utmSource],
    ["UTM medium", lead.utmMedium],
    ["UTM campaign", lead.utmCampaign],
    ["UTM term", lead.utmTerm],
    ["UTM content", lead.utmContent],
    ...attributionRows(lead),
    ["API key", keyLabel],
    ["Web form", formLabel],
    ["Form builder connection", connectionLabel],
    ["Merged leads", mergedIds.length ? mergedIds.join(", ") : null],
  ];

  return (
    <div>
      <Breadcrumb href={backHref}>← Leads</Breadcrumb>
      <div className="mb-8 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-full">
          {/* A 200-character word wraps anywhere rather than widening the page. */}
          <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] text-slate-900">{name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span className="font-mono">{lead.id}</span>
            <span aria-hidden="true">·</span>
            <span>
              Created <DateTime value={lead.createdAt} />
            </span>
            <Badge tone="indigo">{lead.source.name}</Badge>
            {duplicates.length ? <Badge tone="amber">Possible duplicate</Badge> : null}
          </p>
        </div>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <ReportSpamButton slug={team.slug} leadId={lead.id} hasEmail={Boolean(lead.email)} backHref={backHref} />
            <DeleteLeadButton slug={team.slug} leadId={lead.id} backHref={backHref} />
          </div>
        ) : null}
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <LeadOwnershipCard
          slug={team.slug}
          lead={{
            id: lead.id,
            status: isLeadStatus(lead.status) ? lead.status : NEW_LEAD_STATUS,
            ownerId: lead.ownerId,
            createdAt: lead.createdAt,
          }}
          members={members}
          viewerId={user.id}
          canManage={canManage}
          now={now()}
        />
        <DetailCard title="Contact" rows={contact} />
        <DetailCard title="Organization" rows={organization} />
        <DetailCard title="Source and attribution" rows={attribution} />
        <ConsentSection
          slug={team.slug}
          leadId={lead.id}
          evidence={consents}
          recorders={new Map(members.map((member) => [member.userId, member.name ?? member.email]))}
          canResend={canManage}
          confirmationSentAt={confirmations[0]?.createdAt ?? null}
        />
        <ExtraFields value={lead.extraFields} />
        <SubmissionList count={timeline.submissionCount} submissions={submissionList.slice(0, SUBMISSIONS_SHOWN)} />
        <div className="lg:col-span-2">
          <DuplicateList
            slug={team.slug}
            duplicates={duplicates}
            mergeHref={canManage && duplicates.length ? `/t/${team.slug}/leads/${lead.id}/merge` : null}
          />
        </div>
        <div className="lg:col-span-2">
          <LeadTimelineSection
            slug={team.slug}
            leadId={lead.id}
            timeline={timeline}
            submissionLabels={submissionLabels}
            viewer={{ id: user.id, canManage }}
          />
        </div>
      </div>
    </div>
  );
}
