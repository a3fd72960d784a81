import type { Tx } from "../db/client";
import { cellMatcher, type PersonContacts } from "../leads/person-match";

// A person's erasure (lib/leads/erase-person.ts) in the connections' logs: a delivery kept
// whole (it needs mapping, or was refused once its signature held) whose body names one of
// the person's emails or numbers is deleted with the rest, in the erasure's transaction. A
// delivery that made its lead keeps no body: the lead's own erasure covers it.

const IDS_PER_STATEMENT = 500;

/** The body as sent, and as a form body reads once decoded ("ada%40example.com"). */
function readings(payload: string): string[] {
  try {
    const decoded = decodeURIComponent(payload.replace(/\+/g, " "));
    return decoded === payload ? [payload] : [payload, decoded];
  } catch {
    return [payload];
  }
}

/** Deletes the team's kept deliveries naming the person; answers how many. */
export async function eraseKeptDeliveries(tx: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<number> {
  const { contacts } = options;
  if (!contacts.emails.length && !contacts.phones.length) return 0;
  const matcher = cellMatcher(contacts);
  // Kept bodies are few (those waiting for a mapping, refusals after a valid signature): read them all.
  const kept = await tx.connectionDelivery.findMany({
    where: { teamId: options.teamId, payload: { not: null } },
    select: { id: true, payload: true },
  });
  const ids = kept.filter((row) => readings(row.payload!).some((text) => matcher.matches(text))).map((row) => row.id);
  let erased = 0;
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    erased += (await tx.connectionDelivery.deleteMany({ where: { id: { in: ids.slice(i, i + IDS_PER_STATEMENT) } } })).count;
  }
  return erased;
}
