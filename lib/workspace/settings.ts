import { db } from "../db/client";

// Every database access for the workspace's settings lives here.

export const DEFAULT_CURRENCY = "USD";

export async function workspaceCurrency(): Promise<string> {
  const settings = await db().workspaceSettings.findUnique({ where: { id: 1 }, select: { currency: true } });
  return settings?.currency ?? DEFAULT_CURRENCY;
}

export async function setWorkspaceCurrency(currency: string): Promise<void> {
  await db().workspaceSettings.upsert({ where: { id: 1 }, create: { id: 1, currency }, update: { currency } });
}
