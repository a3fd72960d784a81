import { rederiveChannelGroups } from "../leads/lead-store";
import { backfillLeadsOnce } from "./lead-backfill";

// Leads stored before their channel groups were derived (issue 43, migration
// 20261202000006_lead_attribution) get them once, on the first start after the upgrade
// (lib/setup/lead-backfill.ts); until then they read "Direct".

export const DERIVE_ATTRIBUTION_STEP = "lead-channel-groups-derived";

export const deriveExistingAttribution = (): Promise<number> =>
  backfillLeadsOnce(DERIVE_ATTRIBUTION_STEP, (after) => rederiveChannelGroups(after));
