import { db } from "../db/client";

// Every database access for the workspace's settings lives here.

export const DEFAULT_CURRENCY = "USD";

/** Read on every create_lead: a raw query, a fraction of a model query's cost (docs/performance.md). */
export async function workspaceCurrency(): Promise<string> {
  const rows = await db().$queryRaw<{ currency: string }[]>`SELECT "currency" FROM "WorkspaceSettings" WHERE "id" = 1`;
  return rows[0]?.currency ?? DEFAULT_CURRENCY;
}

export async function setWorkspaceCurrency(currency: string): Promise<void> {
  await db().workspaceSettings.upsert({ where: { id: 1 }, create: { id: 1, currency }, update: { currency } });
}
