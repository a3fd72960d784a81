import { db } from "../db/client";
import { maskWebhookUrl } from "../webhooks/masked-url";

// Audit entries of webhook endpoints written before their URLs were masked (issue 27,
// finding 7) hold the full URL, secret and all, and outlive the endpoint. `npm start` masks
// them once (scripts/start.ts); masking a masked URL changes nothing, so later starts find
// nothing to do. The audit table shows them masked either way (components/audit/audit-table.tsx).

const URL_ACTIONS = ["webhook.created", "webhook.updated"];

/** Masks the URL in every webhook audit entry that still holds it whole; returns how many changed. */
export async function maskStoredWebhookUrls(): Promise<number> {
  const rows = await db().auditEvent.findMany({ where: { action: { in: URL_ACTIONS } }, select: { id: true, details: true } });
  let changed = 0;
  for (const row of rows) {
    const details = row.details;
    if (!details || typeof details !== "object" || Array.isArray(details)) continue;
    const url = (details as Record<string, unknown>).url;
    if (typeof url !== "string" || maskWebhookUrl(url) === url) continue;
    await db().auditEvent.update({ where: { id: row.id }, data: { details: { ...details, url: maskWebhookUrl(url) } } });
    changed++;
  }
  return changed;
}
