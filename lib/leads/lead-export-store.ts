import { latestConsents, type LeadConsentItem } from "../consent/lead-consent-store";
import type { LeadFilter } from "./lead-filter";
import { walkLeads, type LeadTeam, type ListRow } from "./lead-list-store";
import { submissionCounts } from "./lead-submission-store";
import { COMPANY_SELECT, UTM_SELECT, type NewLead } from "./new-lead";

// The export's read: every lead a filter matches, one batch at a time, with its submissions' count.

const EXPORT_SELECT = {
  lastName: true,
  phone: true,
  mobileNo: true,
  skippedPhone: true,
  skippedMobileNo: true,
  skippedWebsite: true,
  ...COMPANY_SELECT,
  currency: true,
  ...UTM_SELECT,
  channelGroup: true,
  firstChannelGroup: true,
  extraFields: true,
  apiKeyId: true,
  formId: true,
  connectionId: true,
  status: true,
  owner: { select: { email: true } },
} as const;

export type ExportLead = ListRow &
  Omit<NewLead, "teamId" | "sourceId" | "extraFields" | "phoneCountryCode" | "phoneNational" | "mobileCountryCode" | "mobileNational"> & {
    createdAt: Date;
    source: { name: string };
    channelGroup: string;
    firstChannelGroup: string;
    extraFields: unknown;
    status: string;
    owner: { email: string } | null;
    /** How many submissions made or joined it. */
    submissions: number;
    /** Its newest consent evidence (docs/consent.md), or null: none. */
    consent: LeadConsentItem | null;
  };

/**
 * Every lead matching the filter, in the filter's order, `batchSize` at a time by keyset
 * pagination on seq: one batch in memory at a time, whatever the team's size.
 */
export async function* exportLeadBatches(team: LeadTeam, filter: LeadFilter, batchSize = 500): AsyncGenerator<ExportLead[]> {
  const order = filter.sort === "oldest" ? "asc" : "desc";
  let from: number | undefined;
  for (;;) {
    const walk = await walkLeads<Omit<ExportLead, "submissions" | "consent">>(team, filter, {
      order,
      from,
      want: batchSize,
      select: EXPORT_SELECT,
    });
    if (walk.rows.length) {
      const ids = walk.rows.map((row) => row.id);
      const [counts, consents] = await Promise.all([submissionCounts(ids), latestConsents(ids)]);
      yield walk.rows.map((row) => ({ ...row, submissions: counts.get(row.id) ?? 0, consent: consents.get(row.id) ?? null }));
    }
    if (!walk.more || walk.lastSeq === null) return;
    from = walk.lastSeq;
  }
}
