import { db, type Tx } from "../db/client";
import { listsOf, type SpamListKind } from "./spam-list-entries";
import type { SpamLists } from "./team-lists";

// Every database access for a team's spam lists (SpamListEntry; docs/spam.md "Lists"). A
// change bumps Team.spamListsVersion in the same transaction, so every instance's intake
// reads the lists again on its next submission for the team (lib/spam/team-spam-lists.ts).

export type SpamListEntryRow = { id: string; list: string; value: string; note: string | null; createdAt: Date };

/** The team's lists as the checks take them, and the version they were read at. */
export async function readSpamLists(teamId: string, client: Tx = db()): Promise<{ version: number; lists: SpamLists }> {
  // The version first, then the entries: a change committed in between leaves a stamp older
  // than the entries (read again next time), never new entries' stamp on old ones.
  const team = await client.team.findUnique({ where: { id: teamId }, select: { spamListsVersion: true } });
  const entries = await client.spamListEntry.findMany({ where: { teamId }, select: { list: true, value: true } });
  return { version: team?.spamListsVersion ?? 0, lists: listsOf(entries) };
}

/** The team's entries, as Settings → Spam lists them: by list, then oldest first. */
export function listSpamListEntries(teamId: string): Promise<SpamListEntryRow[]> {
  return db().spamListEntry.findMany({
    where: { teamId },
    orderBy: [{ list: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { id: true, list: true, value: true, note: true, createdAt: true },
  });
}

export type NewSpamListEntry = { list: SpamListKind; value: string; note?: string | null };

/**
 * Adds entries (already normalized: lib/spam/spam-list-entries.ts) that the team does not
 * have yet, in the caller's transaction; returns the ones added, with their ids. An entry already there is
 * left as it is.
 */
export async function addSpamListEntries(
  client: Tx,
  teamId: string,
  entries: readonly NewSpamListEntry[],
  createdById: string | null,
): Promise<(NewSpamListEntry & { id: string })[]> {
  const added: (NewSpamListEntry & { id: string })[] = [];
  for (const entry of entries) {
    const existing = await client.spamListEntry.findUnique({
      where: { teamId_list_value: { teamId, list: entry.list, value: entry.value } },
      select: { id: true },
    });
    if (existing) continue;
    const { id } = await client.spamListEntry.create({
      data: { teamId, list: entry.list, value: entry.value, note: entry.note ?? null, createdById },
      select: { id: true },
    });
    added.push({ ...entry, id });
  }
  if (added.length) await bumpSpamListsVersion(client, teamId);
  return added;
}

/** Removes one entry of the team; returns it, or null when the team has no such entry. */
export async function removeSpamListEntry(client: Tx, teamId: string, id: string): Promise<SpamListEntryRow | null> {
  const entry = await client.spamListEntry.findFirst({
    where: { id, teamId },
    select: { id: true, list: true, value: true, note: true, createdAt: true },
  });
  if (!entry) return null;
  await client.spamListEntry.delete({ where: { id: entry.id } });
  await bumpSpamListsVersion(client, teamId);
  return entry;
}

/** Removes the team's entry of `value` on `list`, if it has one; true when it did. */
export async function removeSpamListValue(client: Tx, teamId: string, list: SpamListKind, value: string): Promise<boolean> {
  const { count } = await client.spamListEntry.deleteMany({ where: { teamId, list, value } });
  if (count) await bumpSpamListsVersion(client, teamId);
  return count > 0;
}

/**
 * An erasure's part (lib/leads/erase-person.ts): the person's addresses on the team's allow list
 * (a release put them there) are removed. A blocked address stays: the team's decision to keep
 * refusing a sender outlives the sender's data (docs/spam.md "Erasure").
 */
export async function eraseAllowedAddresses(client: Tx, teamId: string, emails: readonly string[]): Promise<number> {
  if (!emails.length) return 0;
  const values = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
  const { count } = await client.spamListEntry.deleteMany({ where: { teamId, list: "allow_email", value: { in: values } } });
  if (count) await bumpSpamListsVersion(client, teamId);
  return count;
}

function bumpSpamListsVersion(client: Tx, teamId: string) {
  return client.team.update({ where: { id: teamId }, data: { spamListsVersion: { increment: 1 } }, select: { id: true } });
}
