import { z } from "zod";
import { db } from "../db/client";
import { insertJobs } from "../jobs/job-store";
import { wakeDeliveries } from "../jobs/wake";
import { oneLine } from "../leads/one-line";
import { newEventId } from "../webhooks/lead-created-event";
import type { OutgoingEmail } from "./assignment-email";

// The email to a team's owners and admins when one of its chat destinations was disabled
// (docs/notifications.md "When a chat stops answering"): the chat answered 404 or 410 (its
// webhook was deleted there), or it failed for a day. It names the destination by its name,
// platform and masked URL, never the URL, and links to the page where it is turned back on.

export const CHAT_DISABLED_EMAIL = "chat.destination_disabled";

const payloadSchema = z.object({
  kind: z.literal("chat_disabled"),
  userId: z.string(),
  teamSlug: z.string(),
  destination: z.string(),
  reason: z.enum(["gone", "failing"]),
});
type ChatDisabledPayload = z.infer<typeof payloadSchema>;

export function isChatDisabledEmail(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && (payload as { kind?: unknown }).kind === "chat_disabled";
}

/** Queues the email to each owner and admin of the team (a job each, sent by the email handler). */
export async function queueChatDisabledEmails(options: {
  teamId: string;
  teamSlug: string;
  destination: string;
  reason: "gone" | "failing";
  at: Date;
}) {
  const managers = await db().membership.findMany({
    where: { teamId: options.teamId, role: { in: ["owner", "admin"] } },
    select: { userId: true },
  });
  await insertJobs(
    managers.map(({ userId }) => ({
      teamId: options.teamId,
      kind: "email" as const,
      eventId: newEventId(),
      eventType: CHAT_DISABLED_EMAIL,
      payload: JSON.stringify({
        kind: "chat_disabled",
        userId,
        teamSlug: options.teamSlug,
        destination: options.destination,
        reason: options.reason,
      } satisfies ChatDisabledPayload),
      maxAttempts: 5,
      runAt: options.at,
    })),
  );
  wakeDeliveries();
}

export async function chatDisabledEmail(teamId: string, raw: unknown, baseUrl: string): Promise<OutgoingEmail> {
  const payload = payloadSchema.parse(raw);
  const member = await db().membership.findFirst({
    where: { userId: payload.userId, teamId, role: { in: ["owner", "admin"] } },
    select: { user: { select: { email: true } } },
  });
  if (!member) return { dropped: "No longer an owner or admin of the team" };
  const link = `${baseUrl}/t/${encodeURIComponent(payload.teamSlug)}/settings/notifications`;
  const why =
    payload.reason === "gone"
      ? "The chat answered that its webhook no longer exists (404 or 410): it was deleted or its channel removed."
      : "Every message to it failed for a day.";
  const destination = oneLine(payload.destination);
  return {
    to: member.user.email,
    subject: `Chat notifications stopped: ${destination}`,
    text: [
      `New leads are no longer posted to ${destination} in ${payload.teamSlug}.`,
      why,
      "",
      `Check it, paste a new webhook URL if needed, and turn it back on: ${link}`,
    ].join("\n"),
  };
}
