import { recordAuditEvent, type AuditAction, type AuditActor, type AuditDetails } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { MANAGERS, type Role } from "../teams/roles";
import { isSpamListKind, normalizeListValue, type SpamListKind } from "./spam-list-entries";
import { addSpamListEntries, removeSpamListEntry } from "./spam-list-store";

// An owner or admin adds to and removes from the team's spam lists (Settings → Spam,
// docs/spam.md "Settings"). Values typed one per line are all read first: one that cannot be
// an entry refuses the whole lot, naming its line, so nothing is half added. Each change is
// audited in its transaction with the list and a count, never a value (an address is a
// person's); the store bumps the lists' version in that same transaction.

/** The most values one addition takes. */
export const MAX_VALUES_PER_ADD = 500;

export type ValueProblem = { line: number; error: string };

export type AddValuesResult = { ok: true; added: number; existing: number } | { ok: false; error: string; problems: ValueProblem[] };

type Change = { teamId: string; actor: AuditActor };
const audit = (tx: Tx, change: Change, action: AuditAction, targetId: string | null, details: AuditDetails) =>
  recordAuditEvent({ teamId: change.teamId, action, actor: change.actor, targetId, details }, tx);

const refused = (error: string, problems: ValueProblem[] = []): AddValuesResult => ({ ok: false, error, problems });

/** Values typed one per line (blank lines skipped), normalized and without repeats, or every line's problem. */
export function parseListValues(list: SpamListKind, text: unknown): { values: string[] } | { error: string; problems: ValueProblem[] } {
  const lines = (typeof text === "string" ? text : "").split(/\r?\n/);
  const values = new Set<string>();
  const problems: ValueProblem[] = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    const read = normalizeListValue(list, line);
    if ("error" in read) problems.push({ line: index + 1, error: read.error });
    else values.add(read.value);
  });
  if (problems.length) {
    const error = `${problems.length === 1 ? "One line is" : `${problems.length} lines are`} not valid; nothing was added.`;
    return { error, problems };
  }
  if (!values.size) return { error: "Enter a value, one per line.", problems };
  if (values.size > MAX_VALUES_PER_ADD) return { error: `Add at most ${MAX_VALUES_PER_ADD} values at once.`, problems };
  return { values: [...values] };
}

/** Adds the values typed to one of the team's lists: all of them, or none when one is refused. */
export async function addSpamListValues(options: {
  teamId: string;
  role: Role;
  list: unknown;
  text: unknown;
  actor: AuditActor;
}): Promise<AddValuesResult> {
  if (!MANAGERS.includes(options.role)) return refused("Only owners and admins can change the spam lists.");
  if (!isSpamListKind(options.list)) return refused("Choose a list.");
  const list = options.list;
  const parsed = parseListValues(list, options.text);
  if ("error" in parsed) return refused(parsed.error, parsed.problems);
  return db().$transaction(async (tx) => {
    const entries = parsed.values.map((value) => ({ list, value }));
    const added = await addSpamListEntries(tx, options.teamId, entries, options.actor.userId);
    if (added.length) {
      await audit(tx, options, "spam_list.entries_added", added.length === 1 ? added[0]!.id : null, { list, count: added.length });
    }
    return { ok: true, added: added.length, existing: entries.length - added.length };
  });
}

/** Removes one entry of the team's lists; an entry of another team, or one already gone, is not found. */
export async function removeSpamListValue(options: {
  teamId: string;
  role: Role;
  id: unknown;
  actor: AuditActor;
}): Promise<{ ok: true } | { ok: false; error: string }> {
  if (!MANAGERS.includes(options.role)) return { ok: false, error: "Only owners and admins can change the spam lists." };
  const id = options.id;
  if (typeof id !== "string" || !id || id.length > 100) return { ok: false, error: "That entry is not on the list." };
  return db().$transaction(async (tx) => {
    const removed = await removeSpamListEntry(tx, options.teamId, id);
    if (!removed) return { ok: false, error: "That entry is not on the list." };
    await audit(tx, options, "spam_list.entry_removed", removed.id, { list: removed.list });
    return { ok: true };
  });
}
