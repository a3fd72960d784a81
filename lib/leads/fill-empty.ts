import type { NewLead } from "./new-lead";

// The one rule of a submission that joins a person's lead: a channel's repeat submission set to
// "add" (docs/leads.md "Repeat submissions", the lead writer) and an import's duplicates mode
// "update" (docs/import.md "Duplicates"). It fills the lead's empty fields and adds the extra
// fields it lacks; nothing the lead has is replaced.

export type Fillable = Pick<
  NewLead,
  | "lastName"
  | "email"
  | "phone"
  | "phoneCountryCode"
  | "phoneNational"
  | "mobileNo"
  | "mobileCountryCode"
  | "mobileNational"
  | "jobTitle"
  | "website"
  | "territory"
  | "industry"
  | "annualRevenue"
  | "noOfEmployees"
  | "utmSource"
  | "utmMedium"
  | "utmCampaign"
  | "utmTerm"
  | "utmContent"
> & { extraFields: unknown };

/** Fields filled one by one; a phone comes with its country code and national number. */
const SINGLE = [
  "lastName",
  "email",
  "jobTitle",
  "website",
  "territory",
  "industry",
  "annualRevenue",
  "noOfEmployees",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
] as const;
const GROUPS = [
  ["phone", "phoneCountryCode", "phoneNational"],
  ["mobileNo", "mobileCountryCode", "mobileNational"],
] as const;

const empty = (value: string | null | undefined) => value === null || value === undefined || value.trim() === "";

function extraObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `target` with its empty fields taken from `from`; null when nothing changes. */
export function fillEmpty<T extends Fillable>(target: T, from: Fillable): T | null {
  const next = { ...target };
  let changed = false;
  for (const field of SINGLE) {
    if (empty(next[field]) && !empty(from[field])) {
      next[field] = from[field];
      changed = true;
    }
  }
  for (const [number, code, national] of GROUPS) {
    if (empty(next[number]) && !empty(from[number])) {
      next[number] = from[number];
      next[code] = from[code];
      next[national] = from[national];
      changed = true;
    }
  }
  const extra = extraObject(next.extraFields);
  const added = Object.entries(extraObject(from.extraFields)).filter(([name]) => !Object.hasOwn(extra, name));
  if (added.length) {
    next.extraFields = { ...extra, ...Object.fromEntries(added) };
    changed = true;
  }
  return changed ? next : null;
}
