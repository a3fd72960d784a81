import { z } from "zod";
import { searchKey, type NewLead } from "../leads/new-lead";

// An assignment rule's conditions (docs/routing.md "Assignment rules"): what a new lead is
// matched on, and how. Evaluated at intake in the lead's transaction for every lead, so it
// is plain code over the lead's fields, with the rule's values folded once when the team's
// routing is loaded (routing-snapshot.ts), not per lead.

/** Where a lead came from: compared by id, with "one of". */
export const ORIGIN_FIELDS = ["source", "web_form", "connection", "api_key"] as const;
/** The lead's fields a condition may test, by the names of create_lead's body (spec 2.1). */
export const TEXT_FIELDS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "first_name",
  "last_name",
  "email",
  "organization",
  "job_title",
  "website",
  "territory",
  "industry",
  "annual_revenue",
  "no_of_employees",
] as const;
/** The country calling code of the lead's phone, else of its mobile number ("+44"). */
export const PHONE_COUNTRY = "phone_country";
/** An extra field is named `extra:<its name>`. */
export const EXTRA_PREFIX = "extra:";

export const OPERATORS = ["equals", "contains", "one_of"] as const;
export type Operator = (typeof OPERATORS)[number];

export type Condition = { field: string; op: Operator; values: readonly string[] };

/** The lead as a condition sees it: its fields as stored, and the source the transaction resolved. */
export type RoutedLead = Pick<
  NewLead,
  | "sourceId"
  | "formId"
  | "connectionId"
  | "apiKeyId"
  | "firstName"
  | "lastName"
  | "email"
  | "organization"
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
  | "phoneCountryCode"
  | "mobileCountryCode"
  | "extraFields"
>;

const TEXT_FIELD_PROPERTY: Record<(typeof TEXT_FIELDS)[number], keyof RoutedLead> = {
  utm_source: "utmSource",
  utm_medium: "utmMedium",
  utm_campaign: "utmCampaign",
  utm_term: "utmTerm",
  utm_content: "utmContent",
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  organization: "organization",
  job_title: "jobTitle",
  website: "website",
  territory: "territory",
  industry: "industry",
  annual_revenue: "annualRevenue",
  no_of_employees: "noOfEmployees",
};

const ORIGIN_PROPERTY: Record<(typeof ORIGIN_FIELDS)[number], keyof RoutedLead> = {
  source: "sourceId",
  web_form: "formId",
  connection: "connectionId",
  api_key: "apiKeyId",
};

export const MAX_CONDITIONS = 10;
export const MAX_VALUES = 50;
export const MAX_VALUE_LENGTH = 200;

const isOrigin = (field: string): field is (typeof ORIGIN_FIELDS)[number] => (ORIGIN_FIELDS as readonly string[]).includes(field);
const isText = (field: string): field is (typeof TEXT_FIELDS)[number] => (TEXT_FIELDS as readonly string[]).includes(field);

/** A condition as an admin saves it: a known field (or extra:<name>), an operator, 1–50 values. */
export const conditionSchema = z
  .object({
    field: z
      .string()
      .max(EXTRA_PREFIX.length + 100)
      .refine(
        (field) =>
          isOrigin(field) ||
          isText(field) ||
          field === PHONE_COUNTRY ||
          (field.startsWith(EXTRA_PREFIX) && field.length > EXTRA_PREFIX.length),
        "Choose a field.",
      ),
    op: z.enum(OPERATORS),
    values: z
      .array(z.string().trim().min(1).max(MAX_VALUE_LENGTH))
      .min(1, "Give at least one value.")
      .max(MAX_VALUES, `At most ${MAX_VALUES} values.`),
  })
  .refine((condition) => !isOrigin(condition.field) || condition.op === "one_of", "Choose where the lead came from.");

/** Values as they are compared: folded like the lead list's search (case and accents ignored). */
export const foldValue = (value: string) => searchKey(value);

/** A condition ready to test leads: its values folded once (ids are compared as they are). */
export type CompiledCondition = { field: string; op: Operator; values: readonly string[] };

export function compileCondition(condition: Condition): CompiledCondition {
  const values = isOrigin(condition.field) ? condition.values : condition.values.map(foldValue);
  return { field: condition.field, op: condition.op, values };
}

/** The lead's values for a field: none, one, or a checkbox group's several. */
function valuesOf(lead: RoutedLead, field: string): readonly string[] {
  if (isOrigin(field)) {
    const id = lead[ORIGIN_PROPERTY[field]] as string | null;
    return id === null ? [] : [id];
  }
  if (field === PHONE_COUNTRY) {
    const code = lead.phoneCountryCode ?? lead.mobileCountryCode;
    return code === null ? [] : [code];
  }
  let value: unknown;
  if (isText(field)) value = lead[TEXT_FIELD_PROPERTY[field]];
  else if (field.startsWith(EXTRA_PREFIX))
    value = Object.hasOwn(lead.extraFields, field.slice(EXTRA_PREFIX.length)) ? lead.extraFields[field.slice(EXTRA_PREFIX.length)] : null;
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => foldValue(String(item)));
}

/** Phone country codes are compared without spaces and with their "+" ("44" is "+44"). */
const dialCode = (value: string) => {
  const digits = value.replace(/[^\d]/g, "");
  return digits ? `+${digits}` : value;
};

/** Whether the lead meets the condition; a field the lead lacks meets none. */
export function conditionHolds(condition: CompiledCondition, lead: RoutedLead): boolean {
  let actual = valuesOf(lead, condition.field);
  let wanted = condition.values;
  if (condition.field === PHONE_COUNTRY) {
    actual = actual.map(dialCode);
    wanted = wanted.map(dialCode);
  }
  return actual.some((value) => {
    if (condition.op === "contains") return wanted.some((part) => value.includes(part));
    return wanted.includes(value);
  });
}
