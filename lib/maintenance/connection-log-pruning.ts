import { deleteSettledDeliveriesBefore } from "../connections/connection-delivery-store";
import { env } from "../env";

// The connections' logs (docs/connections.md "The log's retention"), one of the database's
// maintenance tasks: settled rows (a lead made, a refusal) older than the request logs'
// retention (REQUEST_LOG_RETENTION_DAYS) go; a delivery still waiting for a mapping stays.
// Run with lead retention, by the instance that claimed the hour (lead-retention.ts).

const DAY_MS = 24 * 60 * 60 * 1000;

export function pruneConnectionLogs(now: Date): Promise<number> {
  return deleteSettledDeliveriesBefore(new Date(now.getTime() - env().REQUEST_LOG_RETENTION_DAYS * DAY_MS));
}
