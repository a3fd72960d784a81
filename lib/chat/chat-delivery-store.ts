import { db, type Tx } from "../db/client";
import { DISABLE_AFTER_FAILING_MS } from "../webhooks/delivery-attempt-store";

// A chat destination's delivery log (each POST: time, event, status, the platform's
// answer; never the URL), the failing-since time it keeps, its pacing slot, and its
// disabling: at once when the chat answers 404 or 410 (the webhook was deleted there), or
// by the webhooks' rule (lib/webhooks/delivery-attempt-store.ts) after a day of failures.

export type ChatDeliveryRecord = {
  destinationId: string;
  jobId: string | null;
  event: string;
  leadId: string | null;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  ok: boolean;
  answer: string | null;
};

const ANSWER_CHARS = 500;

/** Logs a POST inside `tx` (the one that ends the job's attempt) and keeps the destination's failing-since time. */
export async function recordChatDelivery(tx: Tx, record: ChatDeliveryRecord, destination: { failingSince: Date | null }): Promise<void> {
  await tx.chatDelivery.create({ data: { ...record, answer: record.answer?.slice(0, ANSWER_CHARS) ?? null } });
  if (record.ok && destination.failingSince !== null) {
    await tx.chatDestination.updateMany({ where: { id: record.destinationId, failingSince: { not: null } }, data: { failingSince: null } });
  } else if (!record.ok && destination.failingSince === null) {
    await tx.chatDestination.updateMany({
      where: { id: record.destinationId, failingSince: null },
      data: { failingSince: record.startedAt },
    });
  }
}

/** The pacing: at most one message a second per destination. */
export const PACE_MS = 1000;

/**
 * Takes the destination's posting slot at `now` when its last message is at least PACE_MS
 * old (one statement: of two dispatchers, one takes it). Null when taken; else the time the
 * next slot opens, when the job is put off to (never dropped).
 */
export async function takePostingSlot(id: string, now: Date): Promise<Date | null> {
  const { count } = await db().chatDestination.updateMany({
    where: { id, OR: [{ lastPostedAt: null }, { lastPostedAt: { lte: new Date(now.getTime() - PACE_MS) } }] },
    data: { lastPostedAt: now },
  });
  if (count === 1) return null;
  const row = await db().chatDestination.findUnique({ where: { id }, select: { lastPostedAt: true } });
  const last = row?.lastPostedAt?.getTime() ?? now.getTime();
  // Never in the past, and in whole slots after the last one (a second later at most).
  return new Date(Math.max(now.getTime() + 1, last + PACE_MS));
}

/** Disables an enabled destination as "gone" (a 404 or 410) or "failing"; true when this call did. */
export async function disableDestination(id: string, reason: "gone" | "failing", now: Date): Promise<boolean> {
  const failing = reason === "failing" ? { failingSince: { lte: new Date(now.getTime() - DISABLE_AFTER_FAILING_MS) } } : {};
  const { count } = await db().chatDestination.updateMany({
    where: { id, enabled: true, ...failing },
    data: { enabled: false, disabledReason: reason, disabledAt: now },
  });
  return count === 1;
}

export type ChatDeliveryRow = Omit<ChatDeliveryRecord, "destinationId" | "jobId"> & { id: number };

export const CHAT_LOG_PAGE_SIZE = 50;

/** A destination's newest deliveries, newest first. */
export async function listChatDeliveries(options: { destinationId: string; teamId: string; take?: number }): Promise<ChatDeliveryRow[]> {
  const rows = await db().chatDelivery.findMany({
    where: { destinationId: options.destinationId, destination: { teamId: options.teamId } },
    orderBy: { id: "desc" },
    take: options.take ?? CHAT_LOG_PAGE_SIZE,
    select: {
      id: true,
      event: true,
      leadId: true,
      attempt: true,
      startedAt: true,
      durationMs: true,
      statusCode: true,
      ok: true,
      answer: true,
    },
  });
  return rows;
}

/** A destination's name, platform and team, for the admins' email when it is disabled. */
export async function destinationSummary(id: string) {
  return db().chatDestination.findUnique({
    where: { id },
    select: { name: true, platform: true, maskedUrl: true, teamId: true, team: { select: { slug: true, name: true } } },
  });
}
