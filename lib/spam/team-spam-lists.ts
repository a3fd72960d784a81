import { readSpamLists } from "./spam-list-store";
import { EMPTY_SPAM_LISTS, type SpamLists } from "./team-lists";

// The intake's per-process copy of each team's spam lists (docs/spam.md "Lists"). The
// channel's lookup reads the team's spamListsVersion with the key, form or connection (no
// extra query); the lists are read again only when that differs from the copy's, so a
// change made on any instance holds on every instance from its next submission. A team that
// never had a list (version 0) reads nothing.

type Copy = { version: number; lists: Promise<SpamLists> };

const copies = new Map<string, Copy>();
const MAX_TEAMS = 10_000;

export function teamSpamLists(team: { id: string; spamListsVersion: number }): Promise<SpamLists> | SpamLists {
  if (team.spamListsVersion === 0) return EMPTY_SPAM_LISTS;
  const copy = copies.get(team.id);
  if (copy && copy.version === team.spamListsVersion) return copy.lists;
  const lists = readSpamLists(team.id).then(({ version, lists }) => {
    const current = copies.get(team.id);
    if (current?.lists === pending) copies.set(team.id, { version, lists: pending });
    return lists;
  });
  const pending: Promise<SpamLists> = lists.catch((error: unknown) => {
    // A failed read is not kept: the next submission reads again.
    if (copies.get(team.id)?.lists === pending) copies.delete(team.id);
    throw error;
  });
  if (copies.size >= MAX_TEAMS && !copies.has(team.id)) copies.delete(copies.keys().next().value!);
  copies.set(team.id, { version: team.spamListsVersion, lists: pending });
  return pending;
}
