import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { INTAKE_SELECT, intakeView, type ConnectionForIntake } from "./connection-store";
import type { MappedAnswer } from "./map-answers";

// Every database access for a connection's log (ConnectionDelivery), and nothing else: one
// row per submission, so a builder's retry finds the lead it already made, and one per
// refusal. The lead writer writes a created lead's row in the lead's own transaction
// (lib/leads/lead-columns.ts deliveryUpsertSql); everything else is here.

/** "held": kept until the person confirms by email (docs/consent.md "Connections"), no lead yet. */
export type DeliveryOutcome = "created" | "needs_mapping" | "refused" | "held";

/** A row of the connection's log as its page lists it: no body, no answers. */
export type DeliveryView = {
  id: string;
  submissionId: string | null;
  outcome: DeliveryOutcome;
  status: number;
  leadId: string | null;
  error: string | null;
  hasPayload: boolean;
  /** What the row keeps (its body and answers), in bytes; null when no body is kept. */
  keptBytes: number | null;
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date;
};

/** One delivery, opened: its row, its body as kept (null when none is) and its answers' keys, labels and targets. */
export type DeliveryDetail = DeliveryView & { contentType: string | null; payload: string | null; answers: MappedAnswer[] };

/** What a row keeps: the UTF-8 bytes of its body and of its answers' JSON; null without a body. */
export function keptBytesOf(payload: string | null, answers: readonly MappedAnswer[] | null): number | null {
  if (payload === null) return null;
  return Buffer.byteLength(payload, "utf8") + (answers ? Buffer.byteLength(JSON.stringify(answers), "utf8") : 0);
}

export const newDeliveryId = () => `dlv_${randomUUID().replaceAll("-", "")}`;

/** The log row of a held delivery is named by its held submission (cc_…): the expiry finds it without opening the sealed row. */
export const heldDeliveryId = (heldId: string) => `dlv_${heldId.replace(/^cc_/, "")}`;

/**
 * The log row of a delivery held until the person confirms, inside the hold's transaction
 * (lib/consent/held-submissions.ts): outcome "held", no body, its answers' keys and labels.
 * A row of the same submission that made no lead (it needed mapping, it was refused, its hold
 * was dropped) is replaced. Throws `repeated()` when the submission made its lead already and
 * `heldBefore()` when it is held already (the builder's retry): either rolls the hold back.
 */
export async function recordHeldDelivery(
  tx: Tx,
  row: {
    id: string;
    connectionId: string;
    teamId: string;
    submissionId: string;
    answers: readonly MappedAnswer[];
    status: number;
    error: string;
    at: Date;
  },
  errors: { repeated: () => Error; heldBefore: () => Error },
): Promise<void> {
  const { at, ...rest } = row;
  const before = await tx.connectionDelivery.findFirst({
    where: { connectionId: row.connectionId, submissionId: row.submissionId },
    select: { id: true, leadId: true, outcome: true },
  });
  if (before?.leadId) throw errors.repeated();
  if (before?.outcome === "held") throw errors.heldBefore();
  if (before) await tx.connectionDelivery.delete({ where: { id: before.id } });
  try {
    await tx.connectionDelivery.create({
      data: { ...rest, answers: [...row.answers], outcome: "held", createdAt: at, lastAttemptAt: at },
      select: { id: true },
    });
  } catch (error) {
    // Another delivery of the submission wrote its row first (held, or its lead: told apart by its retry).
    throw isUniqueViolation(error) ? errors.heldBefore() : error;
  }
}

/**
 * A held delivery left without a lead (its link expired, the person withdrew or was erased):
 * its row says so (`status`, `error`: the reason, no address), inside `tx`. A row gone
 * meanwhile becomes a line of its own, without the submission's id.
 */
export async function settleHeldDelivery(
  tx: Tx,
  row: { heldId: string; connectionId: string; teamId: string; status: number; error: string; at: Date },
): Promise<void> {
  const id = heldDeliveryId(row.heldId);
  const fields = { outcome: "refused", status: row.status, error: row.error, lastAttemptAt: row.at };
  const { count } = await tx.connectionDelivery.updateMany({ where: { id, connectionId: row.connectionId, leadId: null }, data: fields });
  if (count === 0)
    await tx.connectionDelivery.create({
      data: { ...fields, id: newDeliveryId(), connectionId: row.connectionId, teamId: row.teamId, submissionId: null, createdAt: row.at },
      select: { id: true },
    });
}

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
  const keptBytes = keptBytesOf(row.payload, answers);
  // Without answers (a refusal), a row keeps those it had.
  const fields = { ...rest, keptBytes, ...(answers ? { answers: [...answers] } : {}) };
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
      keptBytes,
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

const VIEW_SELECT = {
  id: true,
  submissionId: true,
  outcome: true,
  status: true,
  leadId: true,
  error: true,
  keptBytes: true,
  attempts: true,
  createdAt: true,
  lastAttemptAt: true,
} as const;

function view<Row extends { outcome: string; keptBytes: number | null }>(
  row: Row,
): Row & { outcome: DeliveryOutcome; hasPayload: boolean } {
  return { ...row, outcome: row.outcome as DeliveryOutcome, hasPayload: row.keptBytes !== null };
}

/** Where a page of the log starts: after the row last attempted at `at` with id `id` (newest first). */
export type DeliveryCursor = { at: Date; id: string };

/**
 * A page of the connection's log, newest attempt first: summaries only (no body, no answers),
 * `take` rows after `after`, and the cursor of the next page (null on the last).
 */
export async function listDeliveries(options: {
  teamId: string;
  connectionId: string;
  take: number;
  after?: DeliveryCursor | null;
}): Promise<{ rows: DeliveryView[]; next: DeliveryCursor | null }> {
  const { after } = options;
  const rows = await db().connectionDelivery.findMany({
    where: {
      teamId: options.teamId,
      connectionId: options.connectionId,
      ...(after ? { OR: [{ lastAttemptAt: { lt: after.at } }, { lastAttemptAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ lastAttemptAt: "desc" }, { id: "desc" }],
    take: options.take + 1,
    select: VIEW_SELECT,
  });
  const page = rows.slice(0, options.take).map(view);
  const last = page.at(-1);
  return { rows: page, next: rows.length > options.take && last ? { at: last.lastAttemptAt, id: last.id } : null };
}

/** One delivery of the team's connection, with its kept body and answers; null when the team has none such. */
export async function findDelivery(options: { teamId: string; connectionId: string; id: string }): Promise<DeliveryDetail | null> {
  const row = await db().connectionDelivery.findFirst({
    where: { id: options.id, teamId: options.teamId, connectionId: options.connectionId },
    select: { ...VIEW_SELECT, contentType: true, payload: true, answers: true },
  });
  if (!row) return null;
  return { ...view(row), answers: Array.isArray(row.answers) ? (row.answers as MappedAnswer[]) : [] };
}

/** The bodies the connection keeps: how many rows, and their bytes; the row of `exceptSubmission` (which a retry replaces) not counted. */
export async function keptUsage(connectionId: string, exceptSubmission: string | null): Promise<{ rows: number; bytes: number }> {
  const { _count, _sum } = await db().connectionDelivery.aggregate({
    where: {
      connectionId,
      keptBytes: { not: null },
      // SQL's <> drops rows whose submission id is null: they count too.
      ...(exceptSubmission !== null ? { OR: [{ submissionId: null }, { submissionId: { not: exceptSubmission } }] } : {}),
    },
    _count: { _all: true },
    _sum: { keptBytes: true },
  });
  return { rows: _count._all, bytes: _sum.keptBytes ?? 0 };
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
    // Rows of a read body (created, needs mapping, held) always have their answers.
    where: { connectionId, outcome: { in: ["created", "needs_mapping", "held"] } },
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
 * a delivery kept as "needs mapping" is not settled: deleteKeptDeliveriesBefore. Answers how many went.
 */
export async function deleteSettledDeliveriesBefore(cutoff: Date): Promise<number> {
  const { count } = await db().connectionDelivery.deleteMany({
    where: { lastAttemptAt: { lt: cutoff }, outcome: { in: ["created", "refused"] } },
  });
  return count;
}

/**
 * Deletes deliveries kept as "needs mapping" last attempted before `cutoff`, of one team or of
 * every team but some (lib/maintenance/connection-log-pruning.ts). Answers how many went.
 */
export async function deleteKeptDeliveriesBefore(cutoff: Date, teams: { teamId: string } | { exceptTeamIds: string[] }): Promise<number> {
  const { count } = await db().connectionDelivery.deleteMany({
    where: {
      outcome: "needs_mapping",
      lastAttemptAt: { lt: cutoff },
      ...("teamId" in teams ? { teamId: teams.teamId } : teams.exceptTeamIds.length ? { teamId: { notIn: teams.exceptTeamIds } } : {}),
    },
  });
  return count;
}

/**
 * Deletes one delivery of the team's connection that keeps its body (it waits for a mapping,
 * or was refused with its body); false when the team has none such. A row without a body is
 * left alone: a created row is how a builder's retry finds the lead it already made.
 */
export async function deleteKeptDeliveryRow(tx: Tx, options: { teamId: string; connectionId: string; id: string }): Promise<boolean> {
  const { count } = await tx.connectionDelivery.deleteMany({
    where: { id: options.id, teamId: options.teamId, connectionId: options.connectionId, payload: { not: null } },
  });
  return count === 1;
}
