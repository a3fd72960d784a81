import { refoldSearchKeys } from "../leads/lead-store";
import { backfillLeadsOnce } from "./lead-backfill";

// Leads stored before the search keys were folded (accents removed, issue 17) get folded
// keys once, on the first start after the upgrade (lib/setup/lead-backfill.ts).

export const FOLD_SEARCH_KEYS_STEP = "lead-search-keys-folded";

export const foldExistingSearchKeys = (): Promise<number> => backfillLeadsOnce(FOLD_SEARCH_KEYS_STEP, (after) => refoldSearchKeys(after));
