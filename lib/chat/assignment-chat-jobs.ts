import type { Tx } from "../db/client";
import { insertJobs, type NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { parseIncludeFields } from "./chat-destination-store";
import { leadChatMessage } from "./chat-outbox";

// The chat messages of leads assigned to a member (docs/notifications.md "What is posted"):
// one per lead and destination that posts assignments, written in the transaction of the
// change (lib/leads/lead-ownership.ts). The owner is mentioned when their account has their
// Slack or Discord user id: read when the message is sent (lib/chat/chat-delivery.ts).

export const LEAD_ASSIGNED_CHAT = "lead.assigned";

/** Queues the messages in `tx`; returns how many. */
export async function queueAssignmentChatJobs(
  tx: Tx,
  options: { teamId: string; ownerId: string | null; leadIds: readonly string[]; at: Date },
): Promise<number> {
  const { teamId, ownerId, at } = options;
  if (ownerId === null || !options.leadIds.length) return 0;
  const destinations = await tx.chatDestination.findMany({
    where: { teamId, enabled: true, postAssignments: true },
    orderBy: { id: "asc" },
    select: { id: true, includeFields: true },
  });
  if (!destinations.length) return 0;
  const [team, owner, leads] = await Promise.all([
    tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { slug: true } }),
    tx.user.findUniqueOrThrow({ where: { id: ownerId }, select: { name: true, email: true } }),
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
      },
    }),
  ]);
  const jobs: NewJob[] = destinations.flatMap((destination) =>
    leads.map((lead) => ({
      teamId,
      kind: "chat" as const,
      chatDestinationId: destination.id,
      leadId: lead.id,
      eventId: `${lead.id}:assigned:${at.getTime()}:${destination.id}`,
      eventType: LEAD_ASSIGNED_CHAT,
      maxAttempts: MAX_ATTEMPTS,
      runAt: at,
      payload: JSON.stringify({
        destinationId: destination.id,
        message: leadChatMessage({
          event: "lead.assigned",
          teamSlug: team.slug,
          leadId: lead.id,
          lead: { ...lead, extraFields: (lead.extraFields ?? {}) as Record<string, never> },
          origin: lead.source.name,
          arrivedAt: lead.createdAt,
          owner: { id: ownerId, name: owner.name ?? owner.email },
          fields: parseIncludeFields(destination.includeFields),
        }),
      }),
    })),
  );
  await insertJobs(jobs, tx);
  return jobs.length;
}
