import { randomBytes } from "node:crypto";
import { open, seal } from "../api-keys/secret-box";
import { db, type Tx } from "../db/client";

// Webhook endpoints' rows, and nothing else: a store only stores. The changes a person
// makes (create, update, rotate and reveal the signing secret, enable, disable, delete),
// each with its audit event, are webhook-endpoint-changes.ts; the delivery log is
// delivery-attempt-store.ts. Signing secrets are sealed to their row here (secret-box.ts).

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

/** Stores a new endpoint with a new signing secret, sealed to its id; returns the id. */
export async function insertEndpoint(
  tx: Tx,
  endpoint: { teamId: string; url: string; description: string | null; events: string[]; createdById: string | null },
): Promise<{ id: string }> {
  const created = await tx.webhookEndpoint.create({
    data: {
      teamId: endpoint.teamId,
      url: endpoint.url,
      description: endpoint.description,
      events: endpoint.events.join(" "),
      // Sealed once the id is known: the ciphertext is bound to its row.
      secretCiphertext: "",
      createdById: endpoint.createdById,
    },
    select: { id: true },
  });
  await tx.webhookEndpoint.update({ where: { id: created.id }, data: { secretCiphertext: seal(generateSigningSecret(), created.id) } });
  return created;
}

export async function listEndpoints(teamId: string): Promise<EndpointView[]> {
  const rows = await db().webhookEndpoint.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW });
  return rows.map(toView);
}

export async function findEndpoint(options: { id: string; teamId: string }): Promise<EndpointView | null> {
  const row = await db().webhookEndpoint.findFirst({ where: { id: options.id, teamId: options.teamId }, select: VIEW });
  return row ? toView(row) : null;
}

/** The ids of the team's enabled endpoints subscribed to `event`, as `tx` sees them (an event's outbox rows). */
export async function subscribedEndpointIds(tx: Tx, teamId: string, event: string): Promise<string[]> {
  const rows = await tx.webhookEndpoint.findMany({
    where: { teamId, enabled: true },
    orderBy: { id: "asc" },
    select: { id: true, events: true },
  });
  return rows.filter((row) => row.events.split(" ").includes(event)).map((row) => row.id);
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

type EndpointRef = { id: string; teamId: string };

/** The team's endpoint's URL, description and events; null when the team has no such endpoint. */
export async function findEndpointFields(
  tx: Tx,
  endpoint: EndpointRef,
): Promise<{ url: string; description: string | null; events: string[] } | null> {
  const row = await tx.webhookEndpoint.findFirst({
    where: { id: endpoint.id, teamId: endpoint.teamId },
    select: { url: true, description: true, events: true },
  });
  return row && { ...row, events: row.events.split(" ").filter(Boolean) };
}

/** Writes an endpoint's URL, description and events. */
export async function writeEndpointFields(
  tx: Tx,
  endpoint: { id: string; url: string; description: string | null; events: string[] },
): Promise<void> {
  await tx.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { url: endpoint.url, description: endpoint.description, events: endpoint.events.join(" ") },
  });
}

/** The team's endpoint's sealed signing secret; null when the team has no such endpoint. */
export async function findSealedSecret(client: Tx, endpoint: EndpointRef): Promise<string | null> {
  const row = await client.webhookEndpoint.findFirst({
    where: { id: endpoint.id, teamId: endpoint.teamId },
    select: { secretCiphertext: true },
  });
  return row?.secretCiphertext ?? null;
}

/** The signing secret in a sealed secret of the endpoint's (findSealedSecret). */
export function openSigningSecret(id: string, sealed: string): string {
  return open(sealed, id);
}

/**
 * Replaces the signing secret by `secret`, only while the stored one is still `sealed`
 * (of two rotations at once, one replaces it). With `previousUntil`, the replaced secret
 * is kept, sealed apart, to sign beside the new one until then; without, it is dropped
 * (a rotation during a grace period ends the older secret's). False when nothing was replaced.
 */
export async function replaceSigningSecret(
  tx: Tx,
  options: { id: string; sealed: string; secret: string; previousUntil: Date | null },
): Promise<boolean> {
  const { id, previousUntil } = options;
  const { count } = await tx.webhookEndpoint.updateMany({
    where: { id, secretCiphertext: options.sealed },
    data: {
      secretCiphertext: seal(options.secret, id),
      previousSecretCiphertext: previousUntil ? seal(open(options.sealed, id), previousContext(id)) : null,
      previousSecretExpiresAt: previousUntil,
    },
  });
  return count === 1;
}

/** Enables an endpoint (clearing why and since when it was disabled or failing) or disables it by hand. */
export async function writeEndpointEnabled(tx: Tx, endpoint: EndpointRef & { enabled: boolean }): Promise<boolean> {
  const { count } = await tx.webhookEndpoint.updateMany({
    where: { id: endpoint.id, teamId: endpoint.teamId },
    data: endpoint.enabled
      ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
      : { enabled: false, disabledReason: "manual", disabledAt: new Date() },
  });
  return count === 1;
}

/** Deletes the team's endpoint; false when the team has no such endpoint. */
export async function deleteEndpointRow(tx: Tx, endpoint: EndpointRef): Promise<boolean> {
  const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: endpoint.id, teamId: endpoint.teamId } });
  return count === 1;
}
