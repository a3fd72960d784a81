import { open, seal } from "../api-keys/secret-box";
import { db, type Tx } from "../db/client";
import { maskWebhookUrl } from "../webhooks/masked-url";
import { isChatPlatform, type ChatPlatform } from "./chat-platforms";
import { parseNewLeadFilter, type NewLeadFilter } from "./new-lead-filter";

// Chat destinations' rows, and nothing else (docs/notifications.md). The URL is a secret
// (anyone holding it posts into the channel): sealed to its row here, and only its masked
// form (lib/webhooks/masked-url.ts) is ever read back for a page, an audit row or a log.
// The changes a person makes, each audited, are chat-destination-changes.ts.

export const CONTACT_FIELDS = ["email", "phone", "extra"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type DestinationSettings = {
  name: string;
  postNewLeads: boolean;
  newLeadFilter: NewLeadFilter;
  postAssignments: boolean;
  postReminders: boolean;
  postRepeats: boolean;
  includeFields: ContactField[];
};

export type DestinationView = DestinationSettings & {
  id: string;
  platform: ChatPlatform;
  maskedUrl: string;
  enabled: boolean;
  disabledReason: "manual" | "failing" | "gone" | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
};

const VIEW = {
  id: true,
  platform: true,
  maskedUrl: true,
  name: true,
  postNewLeads: true,
  newLeadFilter: true,
  postAssignments: true,
  postReminders: true,
  postRepeats: true,
  includeFields: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  createdAt: true,
} as const;

type ViewRow = {
  id: string;
  platform: string;
  maskedUrl: string;
  name: string;
  postNewLeads: boolean;
  newLeadFilter: string;
  postAssignments: boolean;
  postReminders: boolean;
  postRepeats: boolean;
  includeFields: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
};

export function parseIncludeFields(text: string): ContactField[] {
  return CONTACT_FIELDS.filter((field) => text.split(" ").includes(field));
}

function toView(row: ViewRow): DestinationView {
  return {
    ...row,
    platform: isChatPlatform(row.platform) ? row.platform : "slack-compatible",
    newLeadFilter: parseNewLeadFilter(row.newLeadFilter),
    includeFields: parseIncludeFields(row.includeFields),
    disabledReason:
      row.disabledReason === "manual" || row.disabledReason === "failing" || row.disabledReason === "gone" ? row.disabledReason : null,
  };
}

const settingsData = (settings: DestinationSettings) => ({
  name: settings.name,
  postNewLeads: settings.postNewLeads,
  newLeadFilter: JSON.stringify(settings.newLeadFilter),
  postAssignments: settings.postAssignments,
  postReminders: settings.postReminders,
  postRepeats: settings.postRepeats,
  includeFields: settings.includeFields.join(" "),
});

/** Stores a destination with its URL sealed to its id; returns the id. */
export async function insertDestination(
  tx: Tx,
  destination: DestinationSettings & { teamId: string; platform: ChatPlatform; url: string; createdById: string | null },
): Promise<{ id: string }> {
  const created = await tx.chatDestination.create({
    data: {
      teamId: destination.teamId,
      platform: destination.platform,
      // Sealed once the id is known: the ciphertext is bound to its row.
      urlCiphertext: "",
      maskedUrl: maskWebhookUrl(destination.url),
      createdById: destination.createdById,
      ...settingsData(destination),
    },
    select: { id: true },
  });
  await tx.chatDestination.update({ where: { id: created.id }, data: { urlCiphertext: seal(destination.url, created.id) } });
  return created;
}

export async function listDestinations(teamId: string): Promise<DestinationView[]> {
  const rows = await db().chatDestination.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW });
  return rows.map(toView);
}

export async function findDestination(client: Tx, options: { id: string; teamId: string }): Promise<DestinationView | null> {
  const row = await client.chatDestination.findFirst({ where: { id: options.id, teamId: options.teamId }, select: VIEW });
  return row ? toView(row) : null;
}

/** The team's enabled destinations, as `tx` sees them (a lead's outbox rows). */
export async function enabledDestinations(tx: Tx, teamId: string): Promise<DestinationView[]> {
  const rows = await tx.chatDestination.findMany({ where: { teamId, enabled: true }, orderBy: { id: "asc" }, select: VIEW });
  return rows.map(toView);
}

export type DeliveryTarget = {
  platform: ChatPlatform;
  url: string;
  enabled: boolean;
  failingSince: Date | null;
  includeFields: ContactField[];
};

/** A destination with its URL opened, for the dispatcher alone; null when it is gone. */
export async function destinationForDelivery(id: string): Promise<DeliveryTarget | null> {
  const row = await db().chatDestination.findUnique({
    where: { id },
    select: { platform: true, urlCiphertext: true, enabled: true, failingSince: true, includeFields: true },
  });
  if (!row) return null;
  return {
    platform: isChatPlatform(row.platform) ? row.platform : "slack-compatible",
    url: open(row.urlCiphertext, id),
    enabled: row.enabled,
    failingSince: row.failingSince,
    includeFields: parseIncludeFields(row.includeFields),
  };
}

type DestinationRef = { id: string; teamId: string };

export async function writeDestinationSettings(tx: Tx, destination: DestinationRef & { settings: DestinationSettings }): Promise<boolean> {
  const { count } = await tx.chatDestination.updateMany({
    where: { id: destination.id, teamId: destination.teamId },
    data: settingsData(destination.settings),
  });
  return count === 1;
}

/** Enables a destination (clearing why it was disabled and since when it fails) or disables it by hand. */
export async function writeDestinationEnabled(tx: Tx, destination: DestinationRef & { enabled: boolean }): Promise<boolean> {
  const { count } = await tx.chatDestination.updateMany({
    where: { id: destination.id, teamId: destination.teamId },
    data: destination.enabled
      ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
      : { enabled: false, disabledReason: "manual", disabledAt: new Date() },
  });
  return count === 1;
}

export async function deleteDestinationRow(tx: Tx, destination: DestinationRef): Promise<boolean> {
  const { count } = await tx.chatDestination.deleteMany({ where: { id: destination.id, teamId: destination.teamId } });
  return count === 1;
}
