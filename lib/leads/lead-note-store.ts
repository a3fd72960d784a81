import { db, type Tx } from "../db/client";
import { env } from "../env";

// The rows of members' notes on a lead (docs/leads.md "Timeline and notes"): written, read and
// locked for a change, moved by a merge. The rules, the transaction and the audit events are
// lead-notes.ts'. A lead's notes go with it (the foreign key cascades: deleting, erasing,
// retention); a deleted user's notes stay, without an author (SetNull).

export type NoteRow = { id: string; leadId: string; authorId: string | null; body: string };

export type LeadNoteItem = {
  id: string;
  authorId: string | null;
  /** The author as the page names them: null when the user was deleted. */
  author: { name: string | null; email: string } | null;
  body: string;
  createdAt: Date;
  updatedAt: Date | null;
};

/**
 * Whether the lead is the team's, as `tx` sees it; on PostgreSQL it is held (FOR SHARE) until
 * the end of `tx`, so a deletion meanwhile waits for the note rather than failing its foreign key.
 */
export async function holdLead(tx: Tx, teamId: string, leadId: string): Promise<boolean> {
  if (env().DATABASE_PROVIDER === "postgres") {
    const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Lead" WHERE "teamId" = ${teamId} AND "id" = ${leadId} FOR SHARE`;
    return rows.length > 0;
  }
  return (await tx.lead.count({ where: { teamId, id: leadId } })) > 0;
}

export async function insertNote(
  tx: Tx,
  note: { teamId: string; leadId: string; authorId: string; body: string; at: Date },
): Promise<{ id: string }> {
  return tx.leadNote.create({
    data: { teamId: note.teamId, leadId: note.leadId, authorId: note.authorId, body: note.body, createdAt: note.at },
    select: { id: true },
  });
}

/**
 * The note of this lead of the team, locked for the rest of `tx` (PostgreSQL: FOR UPDATE;
 * SQLite: the write lock from BEGIN IMMEDIATE); null when it is not there (another lead's or
 * team's note, or one deleted meanwhile).
 */
export async function lockNote(tx: Tx, options: { teamId: string; leadId: string; noteId: string }): Promise<NoteRow | null> {
  const { teamId, leadId, noteId } = options;
  if (env().DATABASE_PROVIDER === "postgres") {
    await tx.$queryRaw`SELECT 1 FROM "LeadNote" WHERE "id" = ${noteId} AND "teamId" = ${teamId} AND "leadId" = ${leadId} FOR UPDATE`;
  }
  return tx.leadNote.findFirst({
    where: { id: noteId, teamId, leadId },
    select: { id: true, leadId: true, authorId: true, body: true },
  });
}

export async function writeNoteBody(tx: Tx, options: { teamId: string; noteId: string; body: string; at: Date }): Promise<void> {
  await tx.leadNote.updateMany({
    where: { id: options.noteId, teamId: options.teamId },
    data: { body: options.body, updatedAt: options.at },
  });
}

export async function deleteNote(tx: Tx, options: { teamId: string; noteId: string }): Promise<number> {
  const { count } = await tx.leadNote.deleteMany({ where: { id: options.noteId, teamId: options.teamId } });
  return count;
}

/** Moves the notes of the merged leads to the survivor inside `tx`, before the merged rows go (they would take theirs with them). */
export async function moveNotes(tx: Tx, teamId: string, mergedIds: readonly string[], survivorId: string): Promise<void> {
  await tx.leadNote.updateMany({ where: { teamId, leadId: { in: [...mergedIds] } }, data: { leadId: survivorId } });
}

/**
 * The lead's notes, newest first (the (leadId, createdAt) index), at most `take`, with their
 * authors. The team is in the query: another team's lead has none here.
 */
export async function findLeadNotes(options: { teamId: string; leadId: string; take: number }): Promise<LeadNoteItem[]> {
  const rows = await db().leadNote.findMany({
    where: { leadId: options.leadId, teamId: options.teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.take,
    select: { id: true, authorId: true, body: true, createdAt: true, updatedAt: true, author: { select: { name: true, email: true } } },
  });
  return rows.map((row) => ({ ...row, author: row.author ?? null }));
}

/** How many notes the lead has (the same index). */
export function countLeadNotes(options: { teamId: string; leadId: string }): Promise<number> {
  return db().leadNote.count({ where: { leadId: options.leadId, teamId: options.teamId } });
}
