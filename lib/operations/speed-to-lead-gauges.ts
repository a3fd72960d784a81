import { SPEED_WINDOWS, speedToLeadOfEveryTeam, type SpeedToLead } from "../leads/speed-to-lead";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { now } from "../time/clock";
import { metrics } from "./metrics";

// The speed-to-lead gauges of /api/metrics (docs/operations.md), read from the database at
// each scrape: per team and window only (at most 7 series a team), never per owner, whose
// number would grow with the members.

const QUANTILES = [
  ["0.5", "medianMs"],
  ["0.9", "p90Ms"],
] as const;

/**
 * Sets the gauges to every team's figures now; a deleted team's series go. When the database
 * cannot answer, the gauges are left empty and the scrape still serves the other metrics.
 */
export async function refreshSpeedToLeadGauges(): Promise<void> {
  let teams: { slug: string; figures: SpeedToLead }[] = [];
  try {
    teams = await speedToLeadOfEveryTeam(now());
  } catch (error) {
    log("warn", "metrics.speed_to_lead_failed", summariseError(error));
  }
  const { timeToFirstContact, contactedLeads, newLeads } = metrics();
  // No await from the reset on: each gauge always holds one scrape's values, whole.
  for (const gauge of [timeToFirstContact, contactedLeads, newLeads]) gauge.reset();
  for (const { slug: team, figures } of teams) {
    newLeads.set({ team }, figures.newNow.count);
    for (const { name: window } of SPEED_WINDOWS) {
      const shown = figures.windows[window];
      contactedLeads.set({ team, window }, shown.contacted);
      for (const [quantile, key] of QUANTILES) {
        const ms = shown[key];
        if (ms !== null) timeToFirstContact.set({ team, window, quantile }, ms / 1000);
      }
    }
  }
}
