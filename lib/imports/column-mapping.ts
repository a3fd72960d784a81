// Which lead field each column of an import fills (docs/import.md "Mapping"). Apart from
// the server's modules, so that the mapping step in the browser uses the same names.
//
// A column maps to a lead field of the spec, to the first or last name (together they
// make the name), to the extra fields under its header name (what the API does with an
// unknown field), to the export's one extra_fields column (a JSON object), or is ignored.

export const LEAD_FIELD_TARGETS = [
  ["name", "Full name"],
  ["first_name", "First name"],
  ["last_name", "Last name"],
  ["email", "Email"],
  ["phone", "Phone"],
  ["mobile_no", "Mobile"],
  ["country_code", "Country code (for phones)"],
  ["organization", "Organization"],
  ["job_title", "Job title"],
  ["website", "Website"],
  ["territory", "Territory"],
  ["industry", "Industry"],
  ["annual_revenue", "Annual revenue"],
  ["no_of_employees", "No. of employees"],
  ["source", "Source"],
  ["utm_source", "UTM source"],
  ["utm_medium", "UTM medium"],
  ["utm_campaign", "UTM campaign"],
  ["utm_term", "UTM term"],
  ["utm_content", "UTM content"],
] as const;

export type LeadFieldTarget = (typeof LEAD_FIELD_TARGETS)[number][0];
/** "extra": an extra field named as the column; "extra_json": a JSON object of extra fields (the export's column). */
export type ColumnTarget = LeadFieldTarget | "extra" | "extra_json" | "ignore";

export const TARGET_LABELS: Record<ColumnTarget, string> = {
  ...(Object.fromEntries(LEAD_FIELD_TARGETS) as Record<LeadFieldTarget, string>),
  extra: "Extra field (named as the column)",
  extra_json: "Extra fields (a JSON object, as exported)",
  ignore: "Ignore",
};

export const COLUMN_TARGETS = Object.keys(TARGET_LABELS) as ColumnTarget[];

export function isColumnTarget(value: unknown): value is ColumnTarget {
  return typeof value === "string" && Object.hasOwn(TARGET_LABELS, value);
}

/** One target per column, in the file's column order. */
export type ColumnMapping = ColumnTarget[];

/** A header as compared: lower-cased, without spaces, "_", "-", "." (and accents). */
export function headerKey(header: string): string {
  return header
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[\s_\-.]+/g, "");
}

/** The names people and other CRMs give each field (compared by headerKey). */
const SYNONYMS: Record<Exclude<ColumnTarget, "extra" | "ignore">, string[]> = {
  name: ["name", "full name", "fullname", "lead name", "contact name", "person", "person name", "display name"],
  first_name: ["first name", "firstname", "given name", "forename", "vorname", "prénom", "nombre"],
  last_name: ["last name", "lastname", "surname", "family name", "nachname", "nom", "apellido", "apellidos"],
  email: ["email", "e-mail", "email address", "e-mail address", "mail", "email id", "primary email", "work email"],
  phone: [
    "phone",
    "phone number",
    "telephone",
    "tel",
    "work phone",
    "business phone",
    "office phone",
    "landline",
    "telefon",
    "téléphone",
    "teléfono",
    "invalid phone",
  ],
  mobile_no: [
    "mobile",
    "mobile no",
    "mobile number",
    "mobile phone",
    "cell",
    "cell phone",
    "cellphone",
    "handy",
    "portable",
    "móvil",
    "invalid mobile no",
  ],
  country_code: ["country code", "dial code", "calling code", "phone country code"],
  organization: [
    "organization",
    "organisation",
    "company",
    "company name",
    "account",
    "account name",
    "business",
    "firm",
    "employer",
    "firma",
    "société",
    "empresa",
  ],
  job_title: ["job title", "title", "position", "role", "designation", "job"],
  website: ["website", "web site", "url", "web", "homepage", "site", "company website", "invalid website"],
  territory: ["territory", "region", "sales territory", "area"],
  industry: ["industry", "sector", "vertical"],
  annual_revenue: ["annual revenue", "revenue", "turnover"],
  no_of_employees: ["no of employees", "number of employees", "employees", "employee count", "headcount", "company size"],
  source: ["source", "lead source"],
  utm_source: ["utm source"],
  utm_medium: ["utm medium"],
  utm_campaign: ["utm campaign", "campaign"],
  utm_term: ["utm term"],
  utm_content: ["utm content"],
  extra_json: ["extra fields"],
};

const BY_KEY = new Map<string, ColumnTarget>();
for (const [target, names] of Object.entries(SYNONYMS) as [ColumnTarget, string[]][]) {
  for (const name of names) BY_KEY.set(headerKey(name), target);
}

/**
 * Columns of the lead list's export that an import leaves out: new ids, times, keys, forms and
 * connections are the importing team's, channel groups are derived from the fields again, an imported lead is New and unassigned (docs/routing.md), and
 * its one submission is the import's; its consent columns are a copy of evidence, not evidence
 * (docs/consent.md "Export").
 */
const EXPORT_ONLY = [
  "id",
  "created_at",
  "channel_group",
  "first_channel_group",
  "api_key",
  "web_form",
  "connection",
  "currency",
  "status",
  "owner",
  "submissions",
  "consent_status",
  "consent_at",
  "consent_purpose",
  "consent_text",
];
const EXPORT_MARKERS = ["id", "created_at", "first_name", "extra_fields"];

const recognised = new Map<string, ColumnTarget>();

/**
 * The target a header suggests; an unknown header is an extra field. A form's "Your email",
 * "Your name" (Contact Form 7's your-email, Jotform's "Your Email") reads as the name after
 * "your".
 */
export function recogniseHeader(header: string): ColumnTarget {
  // A form's labels come again with each of its deliveries: recognised once (NFKD is not free).
  const known = recognised.get(header);
  if (known !== undefined) return known;
  const key = headerKey(header);
  const target = BY_KEY.get(key) ?? (key.startsWith("your") ? BY_KEY.get(key.slice("your".length)) : undefined) ?? "extra";
  if (recognised.size >= 10_000) recognised.clear();
  recognised.set(header, target);
  return target;
}

/**
 * The proposed mapping of a header row: each column by its name, the first column
 * recognised for a field keeping it (a later one with the same meaning becomes an extra
 * field, except phones kept as typed, which the export writes beside the valid number).
 * The lead list's own export is recognised whole: its id, times, key and currency are left out.
 */
export function proposeMapping(headers: readonly string[]): ColumnMapping {
  const keys = headers.map((h) => h.trim().toLowerCase());
  const isExport = EXPORT_MARKERS.every((marker) => keys.includes(marker));
  const taken = new Set<ColumnTarget>();
  return headers.map((header, index) => {
    if (isExport && EXPORT_ONLY.includes(keys[index]!)) return "ignore";
    // The refused-rows file's last column: why the row was refused, not data to import.
    if (index === headers.length - 1 && index > 0 && keys[index] === "reason") return "ignore";
    const target = recogniseHeader(header);
    if (target === "extra") return target;
    const fallback = /^invalid[\s_-]/i.test(header.trim());
    if (taken.has(target) && !fallback) return "extra";
    taken.add(target);
    return target;
  });
}

/** What is wrong with a mapping (nothing: null). `extraLimit`: extra fields a lead may have. */
export function mappingProblem(headers: readonly string[], mapping: readonly ColumnTarget[], extraLimit: number): string | null {
  if (mapping.length !== headers.length) return "The mapping does not match the file's columns.";
  const has = (target: ColumnTarget) => mapping.includes(target);
  if (!has("name") && !has("first_name") && !has("last_name")) {
    return "Map a column to Full name, or to First name and Last name: every lead needs a name.";
  }
  if (has("name") && (has("first_name") || has("last_name"))) {
    return "Map either Full name or First name and Last name, not both.";
  }
  const extras = mapping.filter((target) => target === "extra").length;
  if (extras > extraLimit) {
    return `${extras} columns go to extra fields; a lead holds at most ${extraLimit}. Set some columns to Ignore.`;
  }
  if (mapping.filter((target) => target === "extra_json").length > 1) return "Only one column can hold the exported extra fields (JSON).";
  return null;
}

/** The set of headers a mapping is remembered for (order and case do not matter). */
export function headerSignature(headers: readonly string[]): string {
  return JSON.stringify(headers.map((h) => h.trim().toLowerCase()).sort());
}
