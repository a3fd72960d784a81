import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { refoldSearchKeys } from "../leads/lead-store";

// Leads stored before the search keys were folded (accents removed, issue 17) get folded
// keys once, on the first start after the upgrade; a SetupStep row records that it ran.
// Idempotent: two instances starting together both write the same keys.

export const FOLD_SEARCH_KEYS_STEP = "lead-search-keys-folded";

export async function foldExistingSearchKeys(): Promise<number> {
  if (await db().setupStep.findUnique({ where: { name: FOLD_SEARCH_KEYS_STEP } })) return 0;
  let updated = 0;
  let after = 0;
  for (;;) {
    const batch = await refoldSearchKeys(after);
    updated += batch.updated;
    if (batch.lastSeq === null) break;
    after = batch.lastSeq;
  }
  try {
    await db().setupStep.create({ data: { name: FOLD_SEARCH_KEYS_STEP } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return updated;
}
