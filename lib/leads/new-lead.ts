import { leadChannelGroups, type AttributedFields } from "../attribution/lead-attribution";
import type { ExtraFieldValue } from "./parse-lead-input";

// A lead as the rules make it (lib/leads/create-lead.ts), before the lead writer gives it an
// id (lib/leads/lead-writer.ts), and the search keys stored beside its fields.

export type NewLead = {
  teamId: string;
  apiKeyId: string | null;
  formId: string | null;
  connectionId: string | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  phoneCountryCode: string | null;
  phoneNational: string | null;
  mobileNo: string | null;
  mobileCountryCode: string | null;
  mobileNational: string | null;
  skippedPhone: string | null;
  skippedMobileNo: string | null;
  skippedWebsite: string | null;
  organization: string;
  sourceId: string;
  jobTitle: string | null;
  website: string | null;
  territory: string | null;
  industry: string | null;
  annualRevenue: string | null;
  noOfEmployees: string | null;
  currency: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  extraFields: Record<string, ExtraFieldValue>;
};

/** Lower-cased (email) and folded (names, organization) copies of the searchable fields (see listLeads). */
export function searchKeys(lead: Pick<NewLead, "firstName" | "lastName" | "email" | "organization">) {
  const fullName = [lead.firstName, lead.lastName].filter(Boolean).join(" ");
  return {
    emailKey: lead.email?.toLowerCase() ?? null,
    nameKey: searchKey(fullName),
    lastNameKey: lead.lastName ? searchKey(lead.lastName) : null,
    organizationKey: searchKey(lead.organization),
  };
}

/** The columns a lead's row keeps beside its fields, derived from them at every write: its search keys and its channel groups. */
export function derivedColumns(lead: Pick<NewLead, "firstName" | "lastName" | "email" | "organization"> & AttributedFields) {
  return { ...searchKeys(lead), ...leadChannelGroups(lead) };
}

/**
 * The folded form names and organizations are searched by: compatibility-decomposed, marks
 * removed, lower-cased ("Díaz" and "DIAZ" are both "diaz"; "ﬁ" is "fi"). Leads stored before
 * folding are folded once by lib/setup/fold-search-keys.ts.
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .trim();
}

/** The organization details and the UTM fields, selected by the export and the merge. */
export const COMPANY_SELECT = {
  jobTitle: true,
  website: true,
  territory: true,
  industry: true,
  annualRevenue: true,
  noOfEmployees: true,
} as const;
export const UTM_SELECT = { utmSource: true, utmMedium: true, utmCampaign: true, utmTerm: true, utmContent: true } as const;

/** A lead's name and contact fields, with its id, seq and time: what lists of leads select. */
export const CONTACT_SELECT = {
  id: true,
  seq: true,
  firstName: true,
  lastName: true,
  email: true,
  emailKey: true,
  phone: true,
  mobileNo: true,
  createdAt: true,
} as const;
