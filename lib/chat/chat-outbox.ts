import { leadChannelGroups } from "../attribution/lead-attribution";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import type { NewLead } from "../leads/new-lead";
import type { leadCreatedJobs } from "../notifications/lead-created-outbox";
import { LEAD_CREATED, LEAD_SUBMITTED, type LeadOrigin } from "../webhooks/lead-created-event";
import { parseIncludeFields, type ContactField } from "./chat-destination-store";
import type { ChatMessage } from "./chat-message";
import { newLeadMatches, parseNewLeadFilter, type LeadOrigins } from "./new-lead-filter";

// The chat messages a new lead sets off (docs/notifications.md "What is posted"): one job
// per enabled destination that posts new leads and whose conditions the lead meets, written
// by the lead writer in the lead's own transaction (lib/leads/lead-write.ts outboxJobs), like
// its webhook deliveries. A quarantined submission is no lead: it never gets here. A repeat
// submission that joins a person's lead (lib/leads/lead-write.ts joinedJobs) posts where
// repeats are posted and the destination's new-lead conditions hold (repeatChatJobs).

/** A destination as the lead writer reads it: its id, its conditions and its contact fields (their stored text). */
export type ChatRecipient = { id: string; filter: string; fields: string };

/** A recipient from its JSON text (PostgreSQL's lead statement returns them so). */
export function parseChatRecipient(text: string): ChatRecipient {
  const row = JSON.parse(text) as Partial<ChatRecipient>;
  return { id: String(row.id), filter: String(row.filter ?? "{}"), fields: String(row.fields ?? "") };
}

const fullName = (lead: Pick<NewLead, "firstName" | "lastName">) => [lead.firstName, lead.lastName].filter(Boolean).join(" ");

/** "Website · web form": the source, and the channel it came through. */
function originOf(sourceName: string, origin: LeadOrigin): string {
  const channel = origin.formId ? "web form" : origin.connectionId ? "form builder" : origin.apiKeyId ? "API" : null;
  return channel ? `${sourceName} · ${channel}` : sourceName;
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** A lead's message, with the contact fields the destination ticks and no others. */
export function leadChatMessage(options: {
  event: ChatMessage["event"];
  teamSlug: string;
  leadId: string;
  lead: Pick<NewLead, "firstName" | "lastName" | "organization" | "email" | "phone" | "mobileNo" | "extraFields">;
  origin: string;
  arrivedAt: Date;
  owner: { id: string; name: string } | null;
  fields: readonly ContactField[];
  /** A repeat submission's lead: when it was created and last submitted before this submission. */
  repeat?: { createdAt: Date; lastSubmittedAt: Date | null };
}): ChatMessage {
  const { lead, fields } = options;
  return {
    event: options.event,
    teamName: options.teamSlug,
    link: `/t/${encodeURIComponent(options.teamSlug)}/leads/${encodeURIComponent(options.leadId)}`,
    lead: {
      id: options.leadId,
      name: fullName(lead),
      organization: lead.organization,
      origin: options.origin,
      arrivedAt: options.arrivedAt.toISOString(),
      ...(options.repeat
        ? {
            repeat: {
              createdAt: options.repeat.createdAt.toISOString(),
              lastSubmittedAt: options.repeat.lastSubmittedAt?.toISOString() ?? null,
            },
          }
        : {}),
      owner: options.owner && { ...options.owner, slackUserId: null, discordUserId: null },
      ...(fields.includes("email") ? { email: lead.email } : {}),
      ...(fields.includes("phone") ? { phone: lead.phone ?? lead.mobileNo } : {}),
      ...(fields.includes("extra")
        ? { extra: Object.fromEntries(Object.entries(lead.extraFields).map(([key, value]) => [key, text(value)])) }
        : {}),
    },
  };
}

/** A new lead as its webhook deliveries and emails get it (lead-created-outbox.ts), and the destinations to post it to. */
type NewLeadEvent = Omit<Parameters<typeof leadCreatedJobs>[0], "endpoints" | "subscribers"> & { chats: readonly ChatRecipient[] };

export function newLeadChatJobs(options: NewLeadEvent): NewJob[] {
  const { lead, origin, owner } = options;
  const facts = {
    sourceId: lead.sourceId,
    formId: origin.formId ?? null,
    connectionId: origin.connectionId ?? null,
    apiKeyId: origin.apiKeyId ?? null,
    channelGroup: leadChannelGroups(lead).channelGroup,
    ownerId: owner?.id ?? null,
  };
  return options.chats
    .filter((chat) => newLeadMatches(parseNewLeadFilter(chat.filter), facts))
    .map((chat) => ({
      teamId: options.team.id,
      kind: "chat" as const,
      chatDestinationId: chat.id,
      leadId: options.leadId,
      eventId: `${options.leadId}:chat:${chat.id}`,
      eventType: LEAD_CREATED,
      maxAttempts: MAX_ATTEMPTS,
      runAt: options.at,
      payload: JSON.stringify({
        destinationId: chat.id,
        message: leadChatMessage({
          event: "lead.created",
          teamSlug: options.team.slug,
          leadId: options.leadId,
          lead,
          origin: originOf(options.sourceName, origin),
          arrivedAt: options.at,
          owner: owner && { id: owner.id, name: owner.name ?? owner.email },
          fields: parseIncludeFields(chat.fields),
        }),
      }),
    }));
}

/**
 * A repeat submission joined to a person's lead (docs/notifications.md "Repeat submissions"):
 * one job per enabled destination that posts repeats and whose new-lead conditions the lead
 * meets as it now stands: its source, this submission's web form, connection or API key, its
 * channel group after the submission, and its owner (after the rules, when it had none).
 */
export function repeatChatJobs(options: {
  chats: readonly ChatRecipient[];
  team: { id: string; slug: string };
  leadId: string;
  submissionId: string;
  lead: Pick<NewLead, "firstName" | "lastName" | "organization" | "email" | "phone" | "mobileNo" | "extraFields"> & {
    sourceId: string;
    channelGroup: string | null;
    createdAt: Date;
  };
  /** When the lead was last submitted before this submission (null: only when it was created). */
  lastSubmittedAt: Date | null;
  sourceName: string;
  /** This submission's channel. */
  origin: LeadOrigin;
  owner: { id: string; name: string } | null;
  at: Date;
}): NewJob[] {
  const { lead, origin, owner } = options;
  const facts: LeadOrigins = {
    sourceId: lead.sourceId,
    formId: origin.formId ?? null,
    connectionId: origin.connectionId ?? null,
    apiKeyId: origin.apiKeyId ?? null,
    channelGroup: lead.channelGroup,
    ownerId: owner?.id ?? null,
  };
  return options.chats
    .filter((chat) => newLeadMatches(parseNewLeadFilter(chat.filter), facts))
    .map((chat) => ({
      teamId: options.team.id,
      kind: "chat" as const,
      chatDestinationId: chat.id,
      leadId: options.leadId,
      eventId: `${options.submissionId}:chat:${chat.id}`,
      eventType: LEAD_SUBMITTED,
      maxAttempts: MAX_ATTEMPTS,
      runAt: options.at,
      payload: JSON.stringify({
        destinationId: chat.id,
        message: leadChatMessage({
          event: "lead.submitted",
          teamSlug: options.team.slug,
          leadId: options.leadId,
          lead,
          origin: originOf(options.sourceName, origin),
          arrivedAt: options.at,
          owner,
          fields: parseIncludeFields(chat.fields),
          repeat: { createdAt: lead.createdAt, lastSubmittedAt: options.lastSubmittedAt },
        }),
      }),
    }));
}
