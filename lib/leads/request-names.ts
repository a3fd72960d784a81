import type { NewLead } from "./new-lead";

/**
 * The lead's columns by the request's names (spec 2.1), in the request's order: what a
 * joining submission filled (lead.submitted's `filled`) and what the "submitted again" email
 * compares (lib/notifications/assignment-email-store.ts) are named by it.
 */
export const REQUEST_NAMES = [
  ["firstName", "first_name"],
  ["lastName", "last_name"],
  ["email", "email"],
  ["phone", "phone"],
  ["mobileNo", "mobile_no"],
  ["organization", "organization"],
  ["jobTitle", "job_title"],
  ["website", "website"],
  ["territory", "territory"],
  ["industry", "industry"],
  ["annualRevenue", "annual_revenue"],
  ["noOfEmployees", "no_of_employees"],
  ["utmSource", "utm_source"],
  ["utmMedium", "utm_medium"],
  ["utmCampaign", "utm_campaign"],
  ["utmTerm", "utm_term"],
  ["utmContent", "utm_content"],
] as const satisfies readonly (readonly [keyof NewLead, string])[];
