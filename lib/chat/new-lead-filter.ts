import { z } from "zod";

// Which new leads a chat destination posts (docs/notifications.md "What is posted"): every
// list names the values a lead must have one of; an empty or missing list is "any".

export const newLeadFilterSchema = z.object({
  sourceIds: z.array(z.string()).default([]),
  formIds: z.array(z.string()).default([]),
  connectionIds: z.array(z.string()).default([]),
  apiKeyIds: z.array(z.string()).default([]),
  channelGroups: z.array(z.string()).default([]),
  ownerIds: z.array(z.string()).default([]),
});
export type NewLeadFilter = z.infer<typeof newLeadFilterSchema>;

export const ANY_LEAD: NewLeadFilter = newLeadFilterSchema.parse({});

/** A stored filter; a text that is not one reads as "any" (never an error at intake). */
export function parseNewLeadFilter(text: string): NewLeadFilter {
  try {
    const parsed = newLeadFilterSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : ANY_LEAD;
  } catch {
    return ANY_LEAD;
  }
}

/** What of a new lead the filter reads. */
export type LeadOrigins = {
  sourceId: string;
  formId: string | null;
  connectionId: string | null;
  apiKeyId: string | null;
  channelGroup: string | null;
  ownerId: string | null;
};

const allows = (list: readonly string[], value: string | null) => list.length === 0 || (value !== null && list.includes(value));

export function newLeadMatches(filter: NewLeadFilter, lead: LeadOrigins): boolean {
  return (
    allows(filter.sourceIds, lead.sourceId) &&
    allows(filter.formIds, lead.formId) &&
    allows(filter.connectionIds, lead.connectionId) &&
    allows(filter.apiKeyIds, lead.apiKeyId) &&
    allows(filter.channelGroups, lead.channelGroup) &&
    allows(filter.ownerIds, lead.ownerId)
  );
}

// The conditions as a page offers and names them: the team's choices of each are read by
// new-lead-filter-choices.ts (kept apart: this file is also the browser's).

export type FilterCondition = keyof NewLeadFilter;
export type FilterChoice = { value: string; label: string };
export type NewLeadFilterChoices = Record<FilterCondition, FilterChoice[]>;

/** Each condition's name on the page, in the order the page shows them. */
export const CONDITION_LABELS: Record<FilterCondition, string> = {
  sourceIds: "Source",
  formIds: "Web form",
  connectionIds: "Connection",
  apiKeyIds: "API key",
  channelGroups: "Channel group",
  ownerIds: "Owner",
};
export const FILTER_CONDITIONS = Object.keys(CONDITION_LABELS) as FilterCondition[];

/** Whether the filter names no condition (every new lead is posted). */
export const isAnyLead = (filter: NewLeadFilter) => FILTER_CONDITIONS.every((condition) => filter[condition].length === 0);

/** Null when every value of `filter` is one of the team's choices; else a sentence naming the condition that is not. */
export function checkNewLeadFilter(filter: NewLeadFilter, choices: NewLeadFilterChoices): string | null {
  for (const condition of FILTER_CONDITIONS) {
    const known = new Set(choices[condition].map((choice) => choice.value));
    if (filter[condition].some((value) => !known.has(value))) {
      return `${CONDITION_LABELS[condition]}: one of the chosen values is not the team's (it may have been deleted). Reload the page and choose again.`;
    }
  }
  return null;
}

/** "Source: Website or Referral", one line per condition set; a value no longer the team's is named as such. */
export function describeNewLeadFilter(filter: NewLeadFilter, choices: NewLeadFilterChoices): string[] {
  return FILTER_CONDITIONS.filter((condition) => filter[condition].length).map((condition) => {
    const labels = new Map(choices[condition].map((choice) => [choice.value, choice.label]));
    const names = filter[condition].map((value) => labels.get(value) ?? `a deleted ${CONDITION_LABELS[condition].toLowerCase()}`);
    return `${CONDITION_LABELS[condition]}: ${names.join(" or ")}`;
  });
}
