import type { Tx } from "../db/client";
import { insertMarks } from "./lead-consent-store";
import { withdrewBefore } from "./suppression";
import { findSuppressions } from "./suppression-store";

// A CSV import's rows of addresses on the team's suppression list (docs/consent.md "Withdrawal
// and the suppression list"): their leads are created or filled as any other's, and each gets
// "withdrawn_before" evidence (channel "import") in the batch's transaction
// (lib/imports/commit-batch.ts). One read of the list per batch.

export async function markSuppressedImports(
  tx: Tx,
  options: { teamId: string; leads: readonly { leadId: string; email: string | null }[]; at: Date },
): Promise<number> {
  const found = await findSuppressions(
    tx,
    options.teamId,
    options.leads.map((lead) => lead.email),
  );
  if (!found.size) return 0;
  const marks = options.leads.flatMap(({ leadId, email }) => {
    const suppression = email ? found.get(email) : undefined;
    return suppression ? [{ leadId, draft: withdrewBefore(null, suppression, { channel: "import", receivedAt: options.at }) }] : [];
  });
  await insertMarks(tx, { teamId: options.teamId, marks, at: options.at });
  return marks.length;
}
