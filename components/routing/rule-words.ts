import type { StoredRule } from "@/lib/routing/assignment-rules";
import type { RoutingPreview } from "@/lib/routing/routing-preview";
import type { Choice } from "@/components/ui/select-options";
import type { Condition, EXTRA_PREFIX, ORIGIN_FIELDS, Operator, PHONE_COUNTRY, TEXT_FIELDS } from "@/lib/routing/rule-conditions";

// Settings → Lead Routing in words: the condition fields' and operators' names, and a rule as
// the list shows it ("UTM source is one of google, bing"; "Round robin: Ada, Ben"). The field
// names come from lib/routing/rule-conditions.ts as types only, so the compiler checks that
// every field has a name here while the browser gets none of that module's code.

export type OriginField = (typeof ORIGIN_FIELDS)[number];
export type TextField = (typeof TEXT_FIELDS)[number];

export const PHONE_FIELD: typeof PHONE_COUNTRY = "phone_country";
export const EXTRA_FIELD_PREFIX: typeof EXTRA_PREFIX = "extra:";

export const ORIGIN_LABELS = {
  source: "Source",
  web_form: "Web form",
  connection: "Connection",
  api_key: "API key",
} as const satisfies Record<OriginField, string>;

/** What a team has none of yet, and what an id no longer found is. */
const ORIGIN_NOUNS = {
  source: "source",
  web_form: "web form",
  connection: "connection",
  api_key: "API key",
} as const satisfies Record<OriginField, string>;

export const TEXT_LABELS = {
  utm_source: "UTM source",
  utm_medium: "UTM medium",
  utm_campaign: "UTM campaign",
  utm_term: "UTM term",
  utm_content: "UTM content",
  first_name: "First name",
  last_name: "Last name",
  email: "Email",
  organization: "Organization",
  job_title: "Job title",
  website: "Website",
  territory: "Territory",
  industry: "Industry",
  annual_revenue: "Annual revenue",
  no_of_employees: "Number of employees",
} as const satisfies Record<TextField, string>;

export const ORIGIN_FIELD_NAMES = Object.keys(ORIGIN_LABELS) as OriginField[];
export const TEXT_FIELD_NAMES = Object.keys(TEXT_LABELS) as TextField[];

export const OPERATOR_LABELS = { equals: "is", contains: "contains", one_of: "is one of" } as const satisfies Record<Operator, string>;
export const OPERATOR_NAMES = Object.keys(OPERATOR_LABELS) as Operator[];

export const isOriginField = (field: string): field is OriginField => Object.hasOwn(ORIGIN_LABELS, field);
const isTextField = (field: string): field is TextField => Object.hasOwn(TEXT_LABELS, field);

/** A team member as the page names them: `short` in sentences ("Ada"), `long` in choices ("Ada (ada@example.com)"). */
export type MemberName = { id: string; short: string; long: string };

/** What the rules may name: the team's members, and its sources, web forms, connections and API keys. */
export type RoutingChoices = { members: MemberName[]; origins: Record<OriginField, Choice[]> };

/** A rule's fallback "later" in words (If nobody is on duty: …). */
export const LATER_WORDS = "The next member on duty, later";

/** A member a rule names who has left the team (the intake skips them). */
export const FORMER_MEMBER = "a former member";

/** "Source", "UTM source", "Phone country", "Extra field favourite_colour". */
export function fieldLabel(field: string): string {
  if (isOriginField(field)) return ORIGIN_LABELS[field];
  if (isTextField(field)) return TEXT_LABELS[field];
  if (field === PHONE_FIELD) return "Phone country";
  if (field.startsWith(EXTRA_FIELD_PREFIX)) return `Extra field ${field.slice(EXTRA_FIELD_PREFIX.length)}`;
  return field;
}

export function originNoun(field: OriginField): string {
  return ORIGIN_NOUNS[field];
}

/** One condition: "UTM source is one of google, bing", "Source is Website", "Email contains @acme". */
export function describeCondition(condition: Condition, choices: RoutingChoices): string {
  const { field, op, values } = condition;
  const shown = isOriginField(field)
    ? values.map((id) => choices.origins[field].find((choice) => choice.value === id)?.label ?? `a deleted ${ORIGIN_NOUNS[field]}`)
    : values;
  const several = shown.length > 1;
  const verb = op === "contains" ? (several ? "contains any of" : "contains") : several ? "is one of" : "is";
  return `${fieldLabel(field)} ${verb} ${shown.join(", ")}`;
}

/** The rule's conditions, one phrase each; none: "Any lead". */
export function describeConditions(rule: Pick<StoredRule, "conditions">, choices: RoutingChoices): string[] {
  return rule.conditions.length ? rule.conditions.map((condition) => describeCondition(condition, choices)) : ["Any lead"];
}

/** The member's short name; one who has left, "a former member" ("A former member" to start a sentence). */
export function memberShortName(userId: string, members: readonly MemberName[], { start = false } = {}): string {
  return members.find((member) => member.id === userId)?.short ?? (start ? "A former member" : FORMER_MEMBER);
}

/** Who gets the rule's leads: "Ada" or "Round robin: Ada, Ben, Cy". */
export function describeAssignee(rule: Pick<StoredRule, "mode" | "userIds">, members: readonly MemberName[]): string {
  if (rule.mode !== "round_robin") return memberShortName(rule.userIds[0] ?? "", members, { start: true });
  return `Round robin: ${rule.userIds.map((userId) => memberShortName(userId, members)).join(", ")}`;
}

/** Who gets a lead when nobody the rule names is on duty: "Ada", "The next member on duty, later", or "Unassigned". */
export function describeFallback(rule: Pick<StoredRule, "fallbackUserId" | "fallbackLater">, members: readonly MemberName[]): string {
  if (rule.fallbackLater) return LATER_WORDS;
  return rule.fallbackUserId === null ? "Unassigned" : memberShortName(rule.fallbackUserId, members, { start: true });
}

/** "Test a lead"'s answer in one sentence: "Matches rule 'Google Ads' → Ada. It matches …", "No rule matches → unassigned." */
export function outcomeText({ rule, owner, because }: Pick<Extract<RoutingPreview, { ok: true }>, "rule" | "owner" | "because">): string {
  if (!rule && !owner) return "No rule matches → unassigned.";
  const who = owner ? owner.name || owner.email : "unassigned";
  return `${rule ? `Matches rule '${rule.name}'` : "No rule matches"} → ${who}. ${because}`;
}
