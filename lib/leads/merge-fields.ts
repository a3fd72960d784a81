// The fields a merge chooses per lead (lib/leads/merge-leads.ts), apart so that the
// merge form in the browser can name them without the server's modules.

/** The fields chosen per lead, with their labels. Source, currency, key and creation date stay the survivor's. */
export const MERGE_FIELDS = [
  ["firstName", "First name"],
  ["lastName", "Last name"],
  ["email", "Email"],
  ["phone", "Phone"],
  ["mobileNo", "Mobile"],
  ["organization", "Organization"],
  ["jobTitle", "Job title"],
  ["website", "Website"],
  ["territory", "Territory"],
  ["industry", "Industry"],
  ["annualRevenue", "Annual revenue"],
  ["noOfEmployees", "No. of employees"],
  ["utmSource", "UTM source"],
  ["utmMedium", "UTM medium"],
  ["utmCampaign", "UTM campaign"],
  ["utmTerm", "UTM term"],
  ["utmContent", "UTM content"],
] as const;

export type MergeField = (typeof MERGE_FIELDS)[number][0];
/** Per field, the id of the lead whose value is kept. */
export type MergeChoices = Partial<Record<MergeField, string>>;
