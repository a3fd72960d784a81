import { randomUUID } from "node:crypto";
import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { BuilderId } from "./builders";
import type { AnswerOverrides } from "./map-answers";

// Every database access for form-builder connections and their log, and nothing else: a
// store only stores. The audited changes are connection-changes.ts; the intake's use is
// lib/intake/receive-delivery.ts.

export type ConnectionForIntake = {
  id: string;
  builder: BuilderId;
  enabled: boolean;
  signingSecretCiphertext: string | null;
  mapping: AnswerOverrides;
  team: { id: string; slug: string; defaultPhoneCountry: string | null };
};

export type ConnectionView = {
  id: string;
  builder: BuilderId;
  name: string;
  tokenHint: string;
  previousTokenExpiresAt: Date | null;
  enabled: boolean;
  createdAt: Date;
};

const VIEW_SELECT = {
  id: true,
  builder: true,
  name: true,
  tokenHint: true,
  previousTokenExpiresAt: true,
  enabled: true,
  createdAt: true,
} as const;

const asMapping = (value: unknown): AnswerOverrides =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as AnswerOverrides) : {};

/**
 * The connection whose current URL token has this digest, or whose replaced one does until
 * it expires (`now`); null otherwise.
 */
export async function findConnectionForIntake(digest: string, now: Date): Promise<ConnectionForIntake | null> {
  const row = await db().connection.findFirst({
    where: { OR: [{ tokenDigest: digest }, { previousTokenDigest: digest, previousTokenExpiresAt: { gt: now } }] },
    select: {
      id: true,
      builder: true,
      enabled: true,
      signingSecretCiphertext: true,
      mapping: true,
      team: { select: { id: true, slug: true, defaultPhoneCountry: true } },
    },
  });
  return row && { ...row, builder: row.builder as BuilderId, mapping: asMapping(row.mapping) };
}

export async function listConnections(teamId: string): Promise<ConnectionView[]> {
  const rows = await db().connection.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW_SELECT });
  return rows.map((row) => ({ ...row, builder: row.builder as BuilderId }));
}

export async function findConnection(options: { teamId: string; id: string }): Promise<ConnectionView | null> {
  const row = await db().connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: VIEW_SELECT });
  return row && { ...row, builder: row.builder as BuilderId };
}

export async function insertConnection(
  tx: Tx,
  row: {
    teamId: string;
    builder: BuilderId;
    name: string;
    tokenDigest: string;
    tokenHint: string;
    createdById: string | null;
  },
): Promise<string> {
  const created = await tx.connection.create({ data: { ...row, mapping: {} }, select: { id: true } });
  return created.id;
}

/** Seals the signing secret to the row (its id is the box's context), once the row exists. */
export async function writeSigningSecret(tx: Tx, options: { id: string; ciphertext: string }): Promise<void> {
  await tx.connection.update({ where: { id: options.id }, data: { signingSecretCiphertext: options.ciphertext } });
}

/** A new URL token; the current one keeps working until `previousUntil` (null: refused at once). */
export async function writeRolledToken(
  tx: Tx,
  options: { teamId: string; id: string; tokenDigest: string; tokenHint: string; previousUntil: Date | null },
): Promise<boolean> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { tokenDigest: true } });
  if (!row) return false;
  await tx.connection.update({
    where: { id: options.id },
    data: {
      tokenDigest: options.tokenDigest,
      tokenHint: options.tokenHint,
      previousTokenDigest: options.previousUntil ? row.tokenDigest : null,
      previousTokenExpiresAt: options.previousUntil,
    },
  });
  return true;
}

export async function writeConnectionEnabled(tx: Tx, options: { teamId: string; id: string; enabled: boolean }): Promise<boolean> {
  const { count } = await tx.connection.updateMany({
    where: { id: options.id, teamId: options.teamId },
    data: { enabled: options.enabled },
  });
  return count === 1;
}

export async function writeConnectionMapping(tx: Tx, options: { teamId: string; id: string; mapping: AnswerOverrides }): Promise<boolean> {
  const { count } = await tx.connection.updateMany({
    where: { id: options.id, teamId: options.teamId },
    data: { mapping: { ...options.mapping } },
  });
  return count === 1;
}

/** Deletes the connection and its log; its leads keep naming it. Null when the team has no such connection. */
export async function removeConnection(tx: Tx, options: { teamId: string; id: string }): Promise<{ name: string } | null> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { name: true } });
  if (!row) return null;
  await tx.connection.delete({ where: { id: options.id } });
  return row;
}

// ---- The connection's log -------------------------------------------------------------

export type DeliveryOutcome = "created" | "needs_mapping" | "refused";

export type DeliveryView = {
  id: string;
  submissionId: string | null;
  outcome: DeliveryOutcome;
  status: number;
  leadId: string | null;
  error: string | null;
  hasPayload: boolean;
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date;
};

export const newDeliveryId = () => `dlv_${randomUUID().replaceAll("-", "")}`;

/** The lead a submission already made, if it made one. */
export async function findDeliveredLead(options: { connectionId: string; submissionId: string }): Promise<string | null> {
  const row = await db().connectionDelivery.findUnique({
    where: { connectionId_submissionId: options },
    select: { leadId: true },
  });
  return row?.leadId ?? null;
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
  at: Date;
}): Promise<void> {
  const { at, ...fields } = row;
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
      attempts: true,
      createdAt: true,
      lastAttemptAt: true,
    },
  });
  return rows.map(({ payload, ...row }) => ({ ...row, outcome: row.outcome as DeliveryOutcome, hasPayload: payload !== null }));
}
