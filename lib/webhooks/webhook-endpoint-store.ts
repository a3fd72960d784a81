import { randomBytes } from "node:crypto";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { open, seal } from "../api-keys/secret-box";
import { db, type Tx } from "../db/client";
import { maskWebhookUrl } from "./masked-url";

// Webhook endpoints' data: create, list, update, rotate and reveal the signing secret,
// enable, disable, delete. Each change a person makes is written with its audit event in
// one transaction. The delivery log is delivery-attempt-store.ts. Audit details keep the
// URL masked (masked-url.ts): a secret in it must not outlive the endpoint in the log.

export type EndpointView = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: "manual" | "failing" | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  /** After a rotation: until when the replaced secret also signs (null: only the current one does). */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
};

const VIEW = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  previousSecretExpiresAt: true,
  createdAt: true,
} as const;

type EndpointRow = { [K in keyof typeof VIEW]: K extends "events" ? string : K extends "disabledReason" ? string | null : EndpointView[K] };

function toView(row: EndpointRow): EndpointView {
  return {
    ...row,
    events: row.events.split(" ").filter(Boolean),
    disabledReason: row.disabledReason === "manual" || row.disabledReason === "failing" ? row.disabledReason : null,
  };
}

/** A Standard Webhooks secret: "whsec_" and 32 random bytes, base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export async function createEndpoint(options: {
  teamId: string;
  url: string;
  description: string | null;
  events: string[];
  actor: AuditActor;
}): Promise<{ id: string }> {
  return db().$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: {
        teamId: options.teamId,
        url: options.url,
        description: options.description,
        events: options.events.join(" "),
        // Sealed once the id is known: the ciphertext is bound to its row.
        secretCiphertext: "",
        createdById: options.actor.userId,
      },
      select: { id: true },
    });
    await tx.webhookEndpoint.update({
      where: { id: created.id },
      data: { secretCiphertext: seal(generateSigningSecret(), created.id) },
    });
    await audit(tx, options.teamId, "webhook.created", options.actor, created.id, { url: maskWebhookUrl(options.url) });
    return created;
  });
}

export async function listEndpoints(teamId: string): Promise<EndpointView[]> {
  const rows = await db().webhookEndpoint.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW });
  return rows.map(toView);
}

export async function findEndpoint(options: { id: string; teamId: string }): Promise<EndpointView | null> {
  const row = await db().webhookEndpoint.findFirst({ where: { id: options.id, teamId: options.teamId }, select: VIEW });
  return row ? toView(row) : null;
}

/** The sealing context of an endpoint's replaced secret (its current one is sealed to the bare id). */
const previousContext = (id: string) => `${id}:previous`;

/**
 * The endpoint a delivery goes to at `now`, with the secrets that sign it: the current
 * one, then the replaced one while its grace period lasts. Null when the endpoint is gone.
 */
export async function endpointForDelivery(
  id: string,
  now: Date,
): Promise<{ url: string; enabled: boolean; secrets: string[]; failingSince: Date | null } | null> {
  const row = await db().webhookEndpoint.findUnique({
    where: { id },
    select: {
      url: true,
      enabled: true,
      secretCiphertext: true,
      previousSecretCiphertext: true,
      previousSecretExpiresAt: true,
      failingSince: true,
    },
  });
  if (!row) return null;
  const secrets = [open(row.secretCiphertext, id)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(open(row.previousSecretCiphertext, previousContext(id)));
  }
  return { url: row.url, enabled: row.enabled, failingSince: row.failingSince, secrets };
}

/** Changes an endpoint's URL, description and events (already checked by webhook-admin.ts). */
export async function updateEndpoint(options: {
  id: string;
  teamId: string;
  url: string;
  description: string | null;
  events: string[];
  actor: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findFirst({
      where: { id: options.id, teamId: options.teamId },
      select: { url: true, description: true, events: true },
    });
    if (!before) return false;
    const events = options.events.join(" ");
    await tx.webhookEndpoint.update({ where: { id: options.id }, data: { url: options.url, description: options.description, events } });
    // What changed, so the audit log reads "URL, events" rather than a bare "changed".
    const changed = [
      before.url !== options.url ? "url" : null,
      before.description !== options.description ? "description" : null,
      before.events !== events ? "events" : null,
    ].filter((field): field is string => field !== null);
    await audit(tx, options.teamId, "webhook.updated", options.actor, options.id, {
      url: maskWebhookUrl(options.url),
      changed: changed.join(", ") || "nothing",
    });
    return true;
  });
}

/**
 * Rotates the signing secret and returns the new one (the manager who rotated sees it at
 * once; the rotation's audit event covers that): the new one signs from now on, and the replaced one keeps
 * signing beside it until `previousUntil` (Standard Webhooks allows several signatures in
 * one header), so a receiver can switch without refusing a delivery. `previousUntil` at or
 * before now drops the old secret at once; a rotation during a grace period ends the older
 * secret's. Refused (null) when the endpoint is gone or another rotation won the race.
 */
export async function rotateSigningSecret(options: {
  id: string;
  teamId: string;
  now: Date;
  previousUntil: Date;
  actor: AuditActor;
}): Promise<{ secret: string; previousUntil: Date | null } | null> {
  return db().$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.findFirst({
      where: { id: options.id, teamId: options.teamId },
      select: { secretCiphertext: true },
    });
    if (!row) return null;
    const keepOld = options.previousUntil > options.now;
    const secret = generateSigningSecret();
    const { count } = await tx.webhookEndpoint.updateMany({
      // Only over the secret just read: of two rotations at once, one replaces it.
      where: { id: options.id, secretCiphertext: row.secretCiphertext },
      data: {
        secretCiphertext: seal(secret, options.id),
        previousSecretCiphertext: keepOld ? seal(open(row.secretCiphertext, options.id), previousContext(options.id)) : null,
        previousSecretExpiresAt: keepOld ? options.previousUntil : null,
      },
    });
    if (count !== 1) return null;
    const previousUntil = keepOld ? options.previousUntil : null;
    await audit(tx, options.teamId, "webhook.secret_rotated", options.actor, options.id, {
      old_signs_until: previousUntil ? previousUntil.toISOString() : "none",
    });
    return { secret, previousUntil };
  });
}

/** The signing secret, for a manager who asked to see it (audited). */
export async function revealSigningSecret(options: { id: string; teamId: string; actor: AuditActor }): Promise<string | null> {
  const row = await db().webhookEndpoint.findFirst({
    where: { id: options.id, teamId: options.teamId },
    select: { secretCiphertext: true },
  });
  if (!row) return null;
  await audit(db(), options.teamId, "webhook.secret_revealed", options.actor, options.id);
  return open(row.secretCiphertext, options.id);
}

export async function setEndpointEnabled(options: { id: string; teamId: string; enabled: boolean; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: options.id, teamId: options.teamId },
      data: options.enabled
        ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
        : { enabled: false, disabledReason: "manual", disabledAt: new Date() },
    });
    if (count === 1) {
      await audit(tx, options.teamId, options.enabled ? "webhook.enabled" : "webhook.disabled", options.actor, options.id);
    }
    return count === 1;
  });
}

export async function deleteEndpoint(options: { id: string; teamId: string; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: options.id, teamId: options.teamId } });
    if (count === 1) await audit(tx, options.teamId, "webhook.deleted", options.actor, options.id);
    return count === 1;
  });
}

async function audit(
  client: Tx,
  teamId: string,
  action:
    | "webhook.created"
    | "webhook.updated"
    | "webhook.deleted"
    | "webhook.enabled"
    | "webhook.disabled"
    | "webhook.secret_revealed"
    | "webhook.secret_rotated"
    | "webhook.test_sent"
    | "webhook.resent",
  actor: AuditActor,
  targetId: string,
  details?: Record<string, string>,
) {
  await recordAuditEvent({ teamId, action, actor, targetId, details }, client);
}

export { audit as recordWebhookAudit };
