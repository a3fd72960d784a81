import { recordAuditEvent, type AuditActor, type AuditDetails } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { env } from "../env";
import { insertJobs } from "../jobs/job-store";
import { wakeDeliveries } from "../jobs/wake";
import {
  deleteDestinationRow,
  findDestination,
  insertDestination,
  writeDestinationEnabled,
  writeDestinationSettings,
  type DestinationSettings,
} from "./chat-destination-store";
import type { ChatMessage } from "./chat-message";
import { recogniseChatUrl, type ChatPlatform } from "./chat-platforms";

// The changes an owner or admin makes to the team's chat destinations (Settings →
// Notifications → Chat): add, change what is posted, enable, disable, delete, send a test
// message. Each is written with its audit event in one transaction; audit details name the
// destination by its name, platform and masked URL, never the URL (a secret: anyone holding
// it posts into the channel). The role is checked by the caller (the page's actions).

export type AddResult = { ok: true; id: string } | { ok: false; field: "url" | "name"; message: string };

export async function addChatDestination(options: {
  teamId: string;
  url: string;
  platform: ChatPlatform | null;
  settings: DestinationSettings;
  actor: AuditActor;
}): Promise<AddResult> {
  const name = options.settings.name.trim();
  if (!name || name.length > 100) return { ok: false, field: "name", message: "Give the destination a name of 1 to 100 characters." };
  const recognised = recogniseChatUrl(options.url, { chosen: options.platform, allowLocal: env().WEBHOOK_ALLOW_PRIVATE_TARGETS });
  if (!recognised.ok) return { ok: false, field: "url", message: recognised.message };
  const { platform, url } = recognised;
  return db().$transaction(async (tx) => {
    const created = await insertDestination(tx, {
      ...options.settings,
      name,
      teamId: options.teamId,
      platform,
      url,
      createdById: options.actor.userId,
    });
    const view = await findDestination(tx, { id: created.id, teamId: options.teamId });
    await audit(tx, options.teamId, "chat.created", options.actor, created.id, { name, platform, url: view!.maskedUrl });
    return { ok: true as const, id: created.id };
  });
}

export async function updateChatDestination(options: {
  id: string;
  teamId: string;
  settings: DestinationSettings;
  actor: AuditActor;
}): Promise<boolean> {
  const name = options.settings.name.trim();
  if (!name || name.length > 100) return false;
  return db().$transaction(async (tx) => {
    const before = await findDestination(tx, options);
    if (!before) return false;
    await writeDestinationSettings(tx, { ...options, settings: { ...options.settings, name } });
    await audit(tx, options.teamId, "chat.updated", options.actor, options.id, { name, platform: before.platform, url: before.maskedUrl });
    return true;
  });
}

export async function setChatDestinationEnabled(options: {
  id: string;
  teamId: string;
  enabled: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const before = await findDestination(tx, options);
    if (!before || !(await writeDestinationEnabled(tx, options))) return false;
    await audit(tx, options.teamId, options.enabled ? "chat.enabled" : "chat.disabled", options.actor, options.id, {
      name: before.name,
      url: before.maskedUrl,
    });
    return true;
  });
}

export async function deleteChatDestination(options: { id: string; teamId: string; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const before = await findDestination(tx, options);
    if (!before || !(await deleteDestinationRow(tx, options))) return false;
    await audit(tx, options.teamId, "chat.deleted", options.actor, options.id, {
      name: before.name,
      platform: before.platform,
      url: before.maskedUrl,
    });
    return true;
  });
}

/** Queues a test message to the destination (sent by the dispatcher like any other, logged in its delivery log). */
export async function sendChatTestMessage(options: {
  id: string;
  teamId: string;
  teamSlug: string;
  teamName: string;
  actor: AuditActor;
}): Promise<boolean> {
  const at = new Date();
  const queued = await db().$transaction(async (tx) => {
    const destination = await findDestination(tx, options);
    if (!destination) return false;
    const message: ChatMessage = {
      event: "test",
      teamName: options.teamName,
      link: `/t/${encodeURIComponent(options.teamSlug)}/settings/notifications`,
      lead: null,
    };
    await insertJobs(
      [
        {
          teamId: options.teamId,
          kind: "chat",
          chatDestinationId: destination.id,
          eventId: `test:${destination.id}:${at.getTime()}`,
          eventType: "test",
          // One attempt, as a webhook's test event: the log shows how it went.
          maxAttempts: 1,
          runAt: at,
          payload: JSON.stringify({ destinationId: destination.id, message }),
        },
      ],
      tx,
    );
    await audit(tx, options.teamId, "chat.test_sent", options.actor, destination.id, {
      name: destination.name,
      url: destination.maskedUrl,
    });
    return true;
  });
  if (queued) wakeDeliveries();
  return queued;
}

function audit(
  tx: Tx,
  teamId: string,
  action: "chat.created" | "chat.updated" | "chat.deleted" | "chat.enabled" | "chat.disabled" | "chat.test_sent",
  actor: AuditActor,
  targetId: string,
  details: AuditDetails,
) {
  return recordAuditEvent({ teamId, action, actor, targetId, details }, tx);
}
