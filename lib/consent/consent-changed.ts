import type { Tx } from "../db/client";
import { insertJobs } from "../jobs/job-store";
import { findTeamSlug } from "../teams/team-store";
import { LEAD_CONSENT_CHANGED } from "../webhooks/lead-created-event";
import { leadConsentChangedJobs } from "../webhooks/lead-consent-changed-event";
import { subscribedEndpointIds } from "../webhooks/webhook-endpoint-store";
import { leadEmail } from "./lead-consent-store";
import { suppressAddresses } from "./suppression-store";

// What follows a person's consent change once its evidence is written, in the same
// transaction (docs/consent.md): lead.consent_changed to the team's subscribed endpoints, and,
// for a withdrawal (by the email's link or on the lead's page), the lead's address on the
// team's suppression list. Shared by double-opt-in.ts and consent-changes.ts.

/** True when deliveries were queued: the caller wakes them (lib/jobs/wake.ts) after the commit. */
export async function consentChanged(
  tx: Tx,
  change: { teamId: string; leadId: string; status: "confirmed" | "withdrawn"; versionId: string | null; at: Date },
): Promise<boolean> {
  const { teamId, leadId, status, at } = change;
  if (status === "withdrawn") {
    await suppressAddresses(tx, { teamId, emails: [await leadEmail(tx, leadId)], reason: "withdrawn", at });
  }
  const endpoints = await subscribedEndpointIds(tx, teamId, LEAD_CONSENT_CHANGED);
  if (!endpoints.length) return false;
  const team = { id: teamId, slug: await findTeamSlug(tx, teamId) };
  await insertJobs(leadConsentChangedJobs({ endpoints, team, leadId, consent: { status, versionId: change.versionId }, at }), tx);
  return true;
}
