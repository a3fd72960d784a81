import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";

// A pass over every stored lead, once, on the first start after an upgrade that derives a new
// column from the fields (lib/setup/fold-search-keys.ts, derive-attribution.ts): in batches by
// seq; a SetupStep row records that it ran. Idempotent: two instances starting together both
// write the same values.

export type LeadBatch = (afterSeq: number) => Promise<{ lastSeq: number | null; updated: number }>;

/** Runs `batch` over every lead unless the step `name` has run; returns how many leads it updated. */
export async function backfillLeadsOnce(name: string, batch: LeadBatch): Promise<number> {
  if (await db().setupStep.findUnique({ where: { name } })) return 0;
  let updated = 0;
  let after = 0;
  for (;;) {
    const result = await batch(after);
    updated += result.updated;
    if (result.lastSeq === null) break;
    after = result.lastSeq;
  }
  try {
    await db().setupStep.create({ data: { name } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return updated;
}
