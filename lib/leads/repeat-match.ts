// Which lead a person's submission belongs to (docs/leads.md "Repeat submissions"): the one
// matcher of a channel set to "add" (the lead writer, lib/leads/lead-writer.ts) and of an
// import's duplicates (lib/imports/import-job.ts). A lead matches by its email (stored
// lower-cased, emailKey) or by an E.164 number as its phone or its mobile; among several, the
// most recent (highest seq) matching by email, else by a number in the submission's order
// (phone, then mobile).

/** A lead's or a submission's contact details as stored: the email as sent, E.164 numbers. */
export type Contact = { email: string | null; phone: string | null; mobileNo: string | null };

/** The keys a contact is matched by, best first: "e:" and the lower-cased, trimmed email, "p:" and each number. */
export function contactKeys(contact: Contact): string[] {
  const keys: string[] = [];
  const email = contact.email?.trim().toLowerCase();
  if (email) keys.push(`e:${email}`);
  if (contact.phone) keys.push(`p:${contact.phone}`);
  if (contact.mobileNo && contact.mobileNo !== contact.phone) keys.push(`p:${contact.mobileNo}`);
  return keys;
}

/** The lower-cased email and the numbers of a contact: what the stores look leads up by. */
export function contactLookup(contact: Contact): { email: string | null; numbers: string[] } {
  const keys = contactKeys(contact);
  return {
    email: keys[0]?.startsWith("e:") ? keys[0].slice(2) : null,
    numbers: keys.filter((key) => key.startsWith("p:")).map((key) => key.slice(2)),
  };
}

/** A stored lead as matching sees it. */
export type MatchCandidate = { id: string; seq: number; emailKey: string | null; phone: string | null; mobileNo: string | null };

/** Each key of these leads mapped to the most recent lead holding it. */
export function newestByKey<T extends MatchCandidate>(leads: Iterable<T>): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const lead of leads) {
    for (const key of contactKeys({ email: lead.emailKey, phone: lead.phone, mobileNo: lead.mobileNo })) {
      const held = byKey.get(key);
      if (!held || held.seq < lead.seq) byKey.set(key, lead);
    }
  }
  return byKey;
}

/** The lead a submission with these keys (contactKeys) joins: the first key any lead holds, its most recent lead. */
export function matchOf<T>(keys: readonly string[], byKey: ReadonlyMap<string, T>): T | null {
  for (const key of keys) {
    const lead = byKey.get(key);
    if (lead !== undefined) return lead;
  }
  return null;
}

/** When a lead last took a submission: its latest repeat, else its creation. */
export const lastSubmittedAt = (lead: { createdAt: Date; returnedAt: Date | null }) => lead.returnedAt ?? lead.createdAt;

/**
 * The lead a submission joins, of the leads found by its contact (any order): the matching
 * rule above, among the leads whose last submission is at or after `since` (the team's window).
 */
export function pickRepeatLead<T extends MatchCandidate & { createdAt: Date; returnedAt: Date | null }>(
  contact: Contact,
  found: readonly T[],
  since: Date,
): T | null {
  const open = found.filter((lead) => lastSubmittedAt(lead) >= since);
  return open.length ? matchOf(contactKeys(contact), newestByKey(open)) : null;
}
