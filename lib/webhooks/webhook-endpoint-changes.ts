import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { maskWebhookUrl } from "./masked-url";
import {
  deleteEndpointRow,
  findEndpointFields,
  findSealedSecret,
  generateSigningSecret,
  insertEndpoint,
  openSigningSecret,
  replaceSigningSecret,
  writeEndpointEnabled,
  writeEndpointFields,
} from "./webhook-endpoint-store";

// The changes a person makes to a team's webhook endpoints: create, update, rotate and
// reveal the signing secret, enable, disable, delete. Each is written with its audit event
// in one transaction (the rows are webhook-endpoint-store.ts'), and a refused change writes
// neither. The fields are checked before (webhook-admin.ts). Audit details keep the URL
// masked (masked-url.ts): a secret in it must not outlive the endpoint in the log.

export async function createEndpoint(options: {
  teamId: string;
  url: string;
  description: string | null;
  events: string[];
  actor: AuditActor;
}): Promise<{ id: string }> {
  return db().$transaction(async (tx) => {
    const created = await insertEndpoint(tx, {
      teamId: options.teamId,
      url: options.url,
      description: options.description,
      events: options.events,
      createdById: options.actor.userId,
    });
    await audit(tx, options.teamId, "webhook.created", options.actor, created.id, { url: maskWebhookUrl(options.url) });
    return created;
  });
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
    const before = await findEndpointFields(tx, options);
    if (!before) return false;
    await writeEndpointFields(tx, options);
    // What changed, so the audit log reads "URL, events" rather than a bare "changed".
    const changed = [
      before.url !== options.url ? "url" : null,
      before.description !== options.description ? "description" : null,
      before.events.join(" ") !== options.events.join(" ") ? "events" : null,
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
    const sealed = await findSealedSecret(tx, options);
    if (sealed === null) return null;
    const previousUntil = options.previousUntil > options.now ? options.previousUntil : null;
    const secret = generateSigningSecret();
    if (!(await replaceSigningSecret(tx, { id: options.id, sealed, secret, previousUntil }))) return null;
    await audit(tx, options.teamId, "webhook.secret_rotated", options.actor, options.id, {
      old_signs_until: previousUntil ? previousUntil.toISOString() : "none",
    });
    return { secret, previousUntil };
  });
}

/** The signing secret, for a manager who asked to see it (audited). */
export async function revealSigningSecret(options: { id: string; teamId: string; actor: AuditActor }): Promise<string | null> {
  const sealed = await findSealedSecret(db(), options);
  if (sealed === null) return null;
  await audit(db(), options.teamId, "webhook.secret_revealed", options.actor, options.id);
  return openSigningSecret(options.id, sealed);
}

export async function setEndpointEnabled(options: { id: string; teamId: string; enabled: boolean; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const changed = await writeEndpointEnabled(tx, options);
    if (changed) await audit(tx, options.teamId, options.enabled ? "webhook.enabled" : "webhook.disabled", options.actor, options.id);
    return changed;
  });
}

export async function deleteEndpoint(options: { id: string; teamId: string; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const deleted = await deleteEndpointRow(tx, options);
    if (deleted) await audit(tx, options.teamId, "webhook.deleted", options.actor, options.id);
    return deleted;
  });
}

/** A webhook's audit event, in the caller's transaction (or on its own with db()). */
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
