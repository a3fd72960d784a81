import { deleteKeptDeliveriesBefore, deleteSettledDeliveriesBefore } from "../connections/connection-delivery-store";
import { KEPT_DELIVERY_DAYS } from "../connections/kept-deliveries";
import { env } from "../env";
import { teamsWithRetention } from "../teams/team-store";

// The connections' logs (docs/connections.md "The log's retention"), one of the database's
// maintenance tasks: settled rows (a lead made, a refusal) older than the request logs'
// retention (REQUEST_LOG_RETENTION_DAYS) go; a delivery still waiting for a mapping goes after
// the team's lead retention, or KEPT_DELIVERY_DAYS for a team without one (issue 40: a kept
// body no one maps must not stay for ever). Run with lead retention, by the instance that
// claimed the hour (lead-retention.ts). Answers how many rows went.

const DAY_MS = 24 * 60 * 60 * 1000;
const before = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

export async function pruneConnectionLogs(now: Date): Promise<number> {
  let pruned = await deleteSettledDeliveriesBefore(before(now, env().REQUEST_LOG_RETENTION_DAYS));
  const retaining = await teamsWithRetention();
  for (const team of retaining) pruned += await deleteKeptDeliveriesBefore(before(now, team.retentionDays), { teamId: team.id });
  pruned += await deleteKeptDeliveriesBefore(before(now, KEPT_DELIVERY_DAYS), { exceptTeamIds: retaining.map((team) => team.id) });
  return pruned;
}
