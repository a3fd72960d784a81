// A lead's status (docs/routing.md): Frappe CRM's lead statuses. Every lead starts New (the
// column's default, lib/leads/lead-columns.ts); the first change away from New records the
// lead's first contact (lead-ownership.ts). Apart from the server's modules, so that pages
// and the browser name them alike.

export const LEAD_STATUSES = ["new", "contacted", "nurture", "qualified", "unqualified", "junk"] as const;

export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A new lead's status (the database default of Lead.status). */
export const NEW_LEAD_STATUS: LeadStatus = "new";

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  nurture: "Nurture",
  qualified: "Qualified",
  unqualified: "Unqualified",
  junk: "Junk",
};

export function isLeadStatus(value: unknown): value is LeadStatus {
  return typeof value === "string" && (LEAD_STATUSES as readonly string[]).includes(value);
}
