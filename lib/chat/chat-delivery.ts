import { z } from "zod";
import { db, type Tx } from "../db/client";
import type { JobHandler } from "../jobs/dispatcher";
import { log } from "../log/logger";
import { queueChatDisabledEmails } from "../notifications/chat-disabled-email";
import { postJson } from "../webhooks/post-json";
import { destinationForDelivery } from "./chat-destination-store";
import { destinationSummary, disableDestination, recordChatDelivery, takePostingSlot } from "./chat-delivery-store";
import { chatMessageSchema, mentionWords, type ChatMessage } from "./chat-message";
import { PLATFORM_LABELS } from "./chat-platforms";
import { renderChatBody } from "./render-chat-body";

// The dispatcher's handler of chat messages (jobs of kind "chat", docs/notifications.md
// "Delivery"): one POST of the platform's body to the destination, at most one a second per
// destination (a job put off, never dropped), logged in its delivery log. A 429 is retried
// no sooner than its Retry-After (or Discord's `retry_after`); a 404 or 410 disables the
// destination at once and tells the admins; other failures are retried on the jobs' schedule
// and disable it by the webhooks' rule. The URL is opened here only: no log line, error or
// delivery-log row holds it.

export const chatJobSchema = z.object({ destinationId: z.string(), message: chatMessageSchema });
export type ChatJobPayload = z.infer<typeof chatJobSchema>;

const USER_AGENT = "LeadIntake-Chat/1.0";

/** When a 429 (or 503) says to come back: its Retry-After (seconds or a date), else Discord's JSON `retry_after` (seconds). */
export function retryAfterOf(header: string | null, body: string | null, now: Date): Date | null {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return new Date(now.getTime() + Math.ceil(seconds * 1000));
    const date = Date.parse(header);
    if (Number.isFinite(date)) return new Date(Math.max(date, now.getTime()));
  }
  try {
    const seconds = (JSON.parse(body ?? "") as { retry_after?: unknown }).retry_after;
    if (typeof seconds === "number" && seconds >= 0) return new Date(now.getTime() + Math.ceil(seconds * 1000));
  } catch {
    // Not JSON: no time given.
  }
  return null;
}

/** The owner's chat ids as their account says when the message is sent (an assignment's or a repeat submission's mention). */
async function withMentions(message: ChatMessage): Promise<ChatMessage> {
  const owner = message.lead?.owner;
  if (!mentionWords(message.event) || !owner?.id) return message;
  const user = await db().user.findUnique({ where: { id: owner.id }, select: { slackUserId: true, discordUserId: true } });
  return {
    ...message,
    lead: { ...message.lead!, owner: { ...owner, slackUserId: user?.slackUserId ?? null, discordUserId: user?.discordUserId ?? null } },
  };
}

async function disable(destinationId: string, reason: "gone" | "failing", now: Date): Promise<void> {
  if (!(await disableDestination(destinationId, reason, now))) return;
  log("warn", "chat.destination_disabled", { destination_id: destinationId, reason });
  const summary = await destinationSummary(destinationId);
  if (!summary) return;
  const destination = `${summary.name} (${PLATFORM_LABELS[summary.platform as keyof typeof PLATFORM_LABELS] ?? summary.platform}, ${summary.maskedUrl})`;
  await queueChatDisabledEmails({ teamId: summary.teamId, teamSlug: summary.team.slug, destination, reason, at: now });
}

export function chatHandler(options: { baseUrl: string; allowPrivate: boolean }): JobHandler {
  return {
    async run(job, now) {
      const payload = chatJobSchema.parse(JSON.parse(job.payload));
      const { destinationId } = payload;
      const destination = await destinationForDelivery(destinationId);
      if (!destination) return { ok: false, error: "The destination was deleted", retry: false };
      if (!destination.enabled) return { ok: false, error: "The destination is disabled", retry: false };
      const slot = await takePostingSlot(destinationId, now());
      if (slot) return { ok: false, error: "Paced: one message a second per destination", deferUntil: slot };
      const message = await withMentions({ ...payload.message, link: `${options.baseUrl}${payload.message.link}` });
      const startedAt = now();
      const result = await postJson({
        url: destination.url,
        body: JSON.stringify(renderChatBody(destination.platform, message, startedAt)),
        headers: { "user-agent": USER_AGENT },
        allowPrivate: options.allowPrivate,
      });
      const record = (tx: Tx) =>
        recordChatDelivery(
          tx,
          {
            destinationId,
            jobId: job.id,
            event: payload.message.event,
            leadId: payload.message.lead?.id ?? null,
            attempt: job.attempts,
            startedAt,
            durationMs: result.durationMs,
            statusCode: result.statusCode,
            ok: result.ok,
            answer: result.responseExcerpt ?? result.error,
          },
          destination,
        );
      if (result.ok) return { ok: true, record };
      const error = result.error ?? "Failed";
      const status = result.statusCode ?? 0;
      if (status === 404 || status === 410) {
        await disable(destinationId, "gone", startedAt);
        return { ok: false, error, retry: false, record };
      }
      if (status === 429 || status === 503) {
        return { ok: false, error, record, retryAt: retryAfterOf(result.retryAfter, result.responseExcerpt, now()) ?? undefined };
      }
      // The platform refused the body or the URL's credentials: the same message would be refused again.
      if (status >= 400 && status < 500 && status !== 408) return { ok: false, error, retry: false, record };
      return { ok: false, error, record };
    },
    async exhausted(job, now) {
      const destinationId = (JSON.parse(job.payload) as { destinationId?: string }).destinationId;
      if (destinationId) await disable(destinationId, "failing", now);
    },
  };
}
