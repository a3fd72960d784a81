import type { RuleInput, StoredRule } from "@/lib/routing/assignment-rules";
import type { RuleMode } from "@/lib/routing/route-lead";
import type { Operator } from "@/lib/routing/rule-conditions";
import { EXTRA_FIELD_PREFIX, isOriginField } from "./rule-words";

// The rule editor's state (rule-editor.tsx) and the rule it saves: a condition's values are
// typed as one text (commas or new lines between them) or, for where the lead came from,
// ticked; a round robin's members are ticked in a list whose order is the turn order. The
// server validates what is sent (lib/routing/assignment-rules.ts ruleInputSchema).

/** The fallback select's choice "the next member on duty, when one is" (fallbackLater). */
export const LATER_CHOICE = "later";

/** The field select's choice for an extra field; its name is typed beside it. */
export const EXTRA_CHOICE = "extra";

export type ConditionDraft = {
  /** React's key for the row: unique within the draft, never reused. */
  key: number;
  /** A field of rule-conditions.ts, or EXTRA_CHOICE. */
  field: string;
  extraName: string;
  op: Operator;
  /** The typed values of a text field. */
  text: string;
  /** The ticked ids of an origin field (source, web form, connection, API key). */
  picked: string[];
};

export type RuleDraft = {
  name: string;
  enabled: boolean;
  conditions: ConditionDraft[];
  mode: RuleMode;
  /** The member of a "member" rule ("" until one is chosen). */
  single: string;
  /** The team's members in the round robin's list order: the rule's own first, in its order. */
  order: string[];
  /** The ticked members of a round robin. */
  rotation: string[];
  /** A member's id; "" leaves the lead unassigned; LATER_CHOICE: it waits for the next member on duty. */
  fallback: string;
};

/** Values typed in one box: separated by commas or new lines, trimmed, blanks and repeats dropped. */
export function splitValues(text: string): string[] {
  return [...new Set(text.split(/[,\n]/).map((value) => value.trim()))].filter(Boolean);
}

export function newCondition(key: number): ConditionDraft {
  return { key, field: "utm_source", extraName: "", op: "one_of", text: "", picked: [] };
}

/** The row a field change leaves: an origin field only takes "is one of" and ticked ids. */
export function withField(condition: ConditionDraft, field: string): ConditionDraft {
  const origin = isOriginField(field);
  const wasOrigin = isOriginField(condition.field);
  return {
    ...condition,
    field,
    op: origin ? "one_of" : condition.op,
    picked: origin && condition.field === field ? condition.picked : [],
    text: wasOrigin ? "" : condition.text,
  };
}

export function nextConditionKey(conditions: readonly ConditionDraft[]): number {
  return conditions.reduce((max, condition) => Math.max(max, condition.key), -1) + 1;
}

/**
 * The editor's state for `rule` (null: a new rule) among the team's current `memberIds`. A
 * member who has left the team is dropped (the server refuses them); the rest keep their order.
 */
export function draftOf(rule: StoredRule | null, memberIds: readonly string[]): RuleDraft {
  const current = new Set(memberIds);
  const own = (rule?.userIds ?? []).filter((id) => current.has(id));
  const order = [...own, ...memberIds.filter((id) => !own.includes(id))];
  const conditions = (rule?.conditions ?? []).map((condition, key): ConditionDraft => {
    const extra = condition.field.startsWith(EXTRA_FIELD_PREFIX);
    const origin = isOriginField(condition.field);
    return {
      key,
      field: extra ? EXTRA_CHOICE : condition.field,
      extraName: extra ? condition.field.slice(EXTRA_FIELD_PREFIX.length) : "",
      op: condition.op,
      text: origin ? "" : condition.values.join(", "),
      picked: origin ? [...condition.values] : [],
    };
  });
  const mode = rule?.mode ?? "member";
  return {
    name: rule?.name ?? "",
    enabled: rule?.enabled ?? true,
    conditions,
    mode,
    single: mode === "member" ? (own[0] ?? "") : "",
    order,
    rotation: mode === "round_robin" ? own : [],
    fallback: rule?.fallbackLater ? LATER_CHOICE : rule?.fallbackUserId && current.has(rule.fallbackUserId) ? rule.fallbackUserId : "",
  };
}

/** The rule the draft saves, as saveRule takes it. */
export function inputOf(draft: RuleDraft): RuleInput {
  const conditions = draft.conditions.map((condition) => {
    const origin = isOriginField(condition.field);
    return {
      field: condition.field === EXTRA_CHOICE ? `${EXTRA_FIELD_PREFIX}${condition.extraName.trim()}` : condition.field,
      op: origin ? ("one_of" as const) : condition.op,
      values: origin ? [...condition.picked] : splitValues(condition.text),
    };
  });
  const userIds = draft.mode === "member" ? (draft.single ? [draft.single] : []) : draft.order.filter((id) => draft.rotation.includes(id));
  return {
    name: draft.name,
    enabled: draft.enabled,
    conditions,
    mode: draft.mode,
    userIds,
    fallbackUserId: draft.fallback === LATER_CHOICE ? null : draft.fallback || null,
    fallbackLater: draft.fallback === LATER_CHOICE,
  };
}
