import type { Tx } from "../db/client";
import { insertJobs, type NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { parseIncludeFields } from "./chat-destination-store";
import { leadChatMessage } from "./chat-outbox";

// The chat messages about existing leads (docs/notifications.md "What is posted"): leads
// assigned to a member (written in the transaction of the change, lib/leads/lead-ownership.ts)
// and leads still New after the team's reminder time (lib/maintenance/new-lead-reminders.ts).
// One per lead and destination that posts them. The lead and its owner are read in `tx`, as
// the change left them; an assignment's owner is mentioned when their account has their Slack
// or Discord user id, read when the message is sent (lib/chat/chat-delivery.ts).

/** Queues the messages of `event` about these leads in `tx`; returns how many. */
export async function queueLeadChatJobs(
  tx: Tx,
  options: { teamId: string; event: "lead.assigned" | "lead.reminder"; leadIds: readonly string[]; at: Date },
): Promise<number> {
  const { teamId, event, at } = options;
  if (!options.leadIds.length) return 0;
  const destinations = await tx.chatDestination.findMany({
    where: { teamId, enabled: true, ...(event === "lead.assigned" ? { postAssignments: true } : { postReminders: true }) },
    orderBy: { id: "asc" },
    select: { id: true, includeFields: true },
  });
  if (!destinations.length) return 0;
  const [team, leads] = await Promise.all([
    tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { slug: true } }),
    tx.lead.findMany({
      where: { teamId, id: { in: [...options.leadIds] } },
      select: {
        id: true,
        firstName: true,
        lastName: true,
        organization: true,
        email: true,
        phone: true,
        mobileNo: true,
        extraFields: true,
        createdAt: true,
        formId: true,
        connectionId: true,
        apiKeyId: true,
        source: { select: { name: true } },
        owner: { select: { id: true, name: true, email: true } },
      },
    }),
  ]);
  const jobs: NewJob[] = destinations.flatMap((destination) =>
    leads.map((lead) => ({
      teamId,
      kind: "chat" as const,
      chatDestinationId: destination.id,
      leadId: lead.id,
      eventId: `${lead.id}:${event}:${at.getTime()}:${destination.id}`,
      eventType: event,
      maxAttempts: MAX_ATTEMPTS,
      runAt: at,
      payload: JSON.stringify({
        destinationId: destination.id,
        message: leadChatMessage({
          event,
          teamSlug: team.slug,
          leadId: lead.id,
          lead: { ...lead, extraFields: (lead.extraFields ?? {}) as Record<string, never> },
          origin: lead.source.name,
          arrivedAt: lead.createdAt,
          owner: lead.owner && { id: lead.owner.id, name: lead.owner.name ?? lead.owner.email },
          fields: parseIncludeFields(destination.includeFields),
        }),
      }),
    })),
  );
  await insertJobs(jobs, tx);
  return jobs.length;
}
