import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { consentPurpose, consentText } from "../consent/lead-consent-store";
import { BOM, csvRow } from "./csv";
import { narrows, resolveOwner, type LeadFilter } from "./lead-filter";
import { exportLeadBatches, type ExportLead } from "./lead-export-store";
import { type LeadTeam } from "./lead-list-store";

// The CSV export of the lead list's current filter (docs/leads.md "Export"). Streamed: the
// response is written batch by batch as the keyset walk reads them, so memory stays flat
// at any size. Every lead field is a column (the owner as their email), and last the number of
// its submissions; the extra fields are ONE column holding a JSON object (keys sorted): one
// column per extra-field name would need a first pass over every exported lead before the
// header could be written, and would change the header from one export to the next. The
// channel groups are derived from the fields (docs/attribution.md): an import derives them again.
// Last, the lead's current consent (docs/consent.md "Export"): its newest evidence's status,
// time, purpose and exact text; empty cells for a lead with none.

export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "first_name",
  "last_name",
  "email",
  "phone",
  "mobile_no",
  "organization",
  "job_title",
  "website",
  "territory",
  "industry",
  "annual_revenue",
  "no_of_employees",
  "currency",
  "source",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "channel_group",
  "first_channel_group",
  "api_key",
  "web_form",
  "connection",
  "status",
  "owner",
  "invalid_phone",
  "invalid_mobile_no",
  "invalid_website",
  "extra_fields",
  "submissions",
  "consent_status",
  "consent_at",
  "consent_purpose",
  "consent_text",
] as const;

/** The extra fields as one JSON object with its keys in code-point order (the same on both databases). */
function extraFieldsJson(value: unknown): string {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "{}";
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length ? JSON.stringify(Object.fromEntries(entries)) : "{}";
}

export function exportCells(lead: ExportLead): (string | null)[] {
  return [
    lead.id,
    lead.createdAt.toISOString(),
    lead.firstName,
    lead.lastName,
    lead.email,
    lead.phone,
    lead.mobileNo,
    lead.organization,
    lead.jobTitle,
    lead.website,
    lead.territory,
    lead.industry,
    lead.annualRevenue,
    lead.noOfEmployees,
    lead.currency,
    lead.source.name,
    lead.utmSource,
    lead.utmMedium,
    lead.utmCampaign,
    lead.utmTerm,
    lead.utmContent,
    lead.channelGroup,
    lead.firstChannelGroup,
    lead.apiKeyId,
    lead.formId,
    lead.connectionId,
    lead.status,
    lead.owner?.email ?? null,
    lead.skippedPhone,
    lead.skippedMobileNo,
    lead.skippedWebsite,
    extraFieldsJson(lead.extraFields),
    String(lead.submissions),
    lead.consent?.status ?? null,
    lead.consent?.consentAt.toISOString() ?? null,
    lead.consent ? consentPurpose(lead.consent) : null,
    lead.consent ? consentText(lead.consent) : null,
  ];
}

/**
 * The export as a byte stream: the BOM and header, then one row per lead. The audit event
 * (who, from where, whether a filter applied; never the filter's text, which may be a
 * name) is written before the first byte, so even an interrupted download is on record.
 */
export async function exportLeadsCsv(options: {
  team: LeadTeam;
  filter: LeadFilter;
  actor: AuditActor;
}): Promise<ReadableStream<Uint8Array>> {
  await recordAuditEvent({
    teamId: options.team.id,
    action: "lead.exported",
    actor: options.actor,
    details: { filtered: narrows(options.filter), sort: options.filter.sort },
  });
  const encoder = new TextEncoder();
  // Owner "me": the exporting user.
  const batches = exportLeadBatches(options.team, resolveOwner(options.filter, options.actor.userId));
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(BOM + csvRow(EXPORT_COLUMNS)));
          return;
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((lead) => csvRow(exportCells(lead))).join("")));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    // One batch queued ahead at most: a slow client holds the walk back (backpressure).
    { highWaterMark: 1 },
  );
}
