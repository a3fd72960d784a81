import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { INTAKE_SELECT, intakeView, type ConnectionForIntake } from "./connection-store";
import type { MappedAnswer } from "./map-answers";

// Every database access for a connection's log (ConnectionDelivery), and nothing else: one
// row per submission, so a builder's retry finds the lead it already made, and one per
// refusal. The lead writer writes a created lead's row in the lead's own transaction
// (lib/leads/lead-columns.ts deliveryUpsertSql); everything else is here.

export type DeliveryOutcome = "created" | "needs_mapping" | "refused";

export type DeliveryView = {
  id: string;
  submissionId: string | null;
  outcome: DeliveryOutcome;
  status: number;
  leadId: string | null;
  error: string | null;
  hasPayload: boolean;
  answers: MappedAnswer[];
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date;
};

export const newDeliveryId = () => `dlv_${randomUUID().replaceAll("-", "")}`;

/** Counts another attempt of a submission that already made its lead. */
export async function countRepeat(options: { connectionId: string; submissionId: string; at: Date }): Promise<void> {
  await db().connectionDelivery.updateMany({
    where: { connectionId: options.connectionId, submissionId: options.submissionId },
    data: { attempts: { increment: 1 }, lastAttemptAt: options.at },
  });
}

/**
 * Logs a delivery that made no lead. A refusal without a submission id (a wrong signature,
 * an unreadable body) is a row of its own; one with an id is the submission's row,
 * created or updated (a retry of a delivery that still needs mapping), unless that
 * submission made its lead meanwhile.
 */
export async function recordUnmade(row: {
  connectionId: string;
  teamId: string;
  submissionId: string | null;
  outcome: Exclude<DeliveryOutcome, "created">;
  status: number;
  error: string;
  contentType: string | null;
  payload: string | null;
  /** The mapped answers' keys, labels and targets (no values), once the body was read. */
  answers: readonly MappedAnswer[] | null;
  at: Date;
}): Promise<void> {
  const { at, answers, ...rest } = row;
  // Without answers (a refusal), a row keeps those it had.
  const fields = { ...rest, ...(answers ? { answers: [...answers] } : {}) };
  if (row.submissionId === null) {
    await db().connectionDelivery.create({ data: { ...fields, id: newDeliveryId(), createdAt: at, lastAttemptAt: at } });
    return;
  }
  const key = { connectionId: row.connectionId, submissionId: row.submissionId };
  const { count } = await db().connectionDelivery.updateMany({
    where: { ...key, leadId: null },
    data: {
      outcome: row.outcome,
      status: row.status,
      error: row.error,
      contentType: row.contentType,
      payload: row.payload,
      ...(answers ? { answers: [...answers] } : {}),
      attempts: { increment: 1 },
      lastAttemptAt: at,
    },
  });
  if (count === 1) return;
  await db()
    .connectionDelivery.create({ data: { ...fields, id: newDeliveryId(), createdAt: at, lastAttemptAt: at } })
    .catch(async (error: unknown) => {
      // Another delivery of the submission wrote its row first: it is that row now.
      if (!isUniqueViolation(error)) throw error;
      await db().connectionDelivery.updateMany({
        where: { ...key, leadId: null },
        data: { attempts: { increment: 1 }, lastAttemptAt: at },
      });
    });
}

export async function listDeliveries(options: { teamId: string; connectionId: string; take: number }): Promise<DeliveryView[]> {
  const rows = await db().connectionDelivery.findMany({
    where: { teamId: options.teamId, connectionId: options.connectionId },
    orderBy: { lastAttemptAt: "desc" },
    take: options.take,
    select: {
      id: true,
      submissionId: true,
      outcome: true,
      status: true,
      leadId: true,
      error: true,
      payload: true,
      answers: true,
      attempts: true,
      createdAt: true,
      lastAttemptAt: true,
    },
  });
  return rows.map(({ payload, answers, ...row }) => ({
    ...row,
    outcome: row.outcome as DeliveryOutcome,
    hasPayload: payload !== null,
    answers: Array.isArray(answers) ? (answers as MappedAnswer[]) : [],
  }));
}

/** A delivery kept as "needs mapping" (its body is kept), with its connection; null when the team has none such. */
export async function findKeptDelivery(options: {
  teamId: string;
  deliveryId: string;
}): Promise<{ connection: ConnectionForIntake; payload: string; contentType: string | null; submissionId: string | null } | null> {
  const row = await db().connectionDelivery.findFirst({
    where: { id: options.deliveryId, teamId: options.teamId, outcome: "needs_mapping", payload: { not: null } },
    select: { payload: true, contentType: true, submissionId: true, connection: { select: INTAKE_SELECT } },
  });
  return (
    row && { connection: intakeView(row.connection), payload: row.payload!, contentType: row.contentType, submissionId: row.submissionId }
  );
}

/** The answers of the connection's latest delivery that was read (keys, labels, targets): the mapping editor's rows. */
export async function latestAnswers(connectionId: string): Promise<MappedAnswer[]> {
  const row = await db().connectionDelivery.findFirst({
    // Rows of a read body (created, needs mapping) always have their answers.
    where: { connectionId, outcome: { in: ["created", "needs_mapping"] } },
    orderBy: { lastAttemptAt: "desc" },
    select: { answers: true },
  });
  return Array.isArray(row?.answers) ? (row.answers as MappedAnswer[]) : [];
}

/** Per connection of the team: deliveries in the window, and deliveries waiting for a mapping (any age). */
export async function deliveryActivity(teamId: string, since: Date): Promise<Map<string, { deliveries: number; needsMapping: number }>> {
  const [recent, waiting] = await Promise.all([
    db().connectionDelivery.groupBy({ by: ["connectionId"], where: { teamId, lastAttemptAt: { gte: since } }, _count: { _all: true } }),
    db().connectionDelivery.groupBy({ by: ["connectionId"], where: { teamId, outcome: "needs_mapping" }, _count: { _all: true } }),
  ]);
  const activity = new Map<string, { deliveries: number; needsMapping: number }>();
  const entry = (id: string) => activity.get(id) ?? activity.set(id, { deliveries: 0, needsMapping: 0 }).get(id)!;
  for (const row of recent) entry(row.connectionId).deliveries = row._count._all;
  for (const row of waiting) entry(row.connectionId).needsMapping = row._count._all;
  return activity;
}

/**
 * Deletes log rows last attempted before `cutoff` that are settled (a lead made, a refusal);
 * a delivery kept as "needs mapping" stays until it is made a lead, its connection deleted
 * or its person erased: it is a lead not yet made. Answers how many went.
 */
export async function deleteSettledDeliveriesBefore(cutoff: Date): Promise<number> {
  const { count } = await db().connectionDelivery.deleteMany({
    where: { lastAttemptAt: { lt: cutoff }, outcome: { in: ["created", "refused"] } },
  });
  return count;
}
