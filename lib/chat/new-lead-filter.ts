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
