import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { actorRole } from "../teams/actor-role";
import { now as clock } from "../time/clock";
import { deleteNote, holdLead, insertNote, lockNote, writeNoteBody } from "./lead-note-store";
import { checkNoteBody, MAX_NOTE_LENGTH } from "./note-body";

// Members' notes on a lead (docs/leads.md "Timeline and notes"): the rules, one transaction
// per change, and its audit event, written in that transaction. The rows are lead-note-store.ts'.
//
// - Any member of the team writes a note on any lead of the team.
// - A note is edited only by its author, and deleted by its author or by an owner or admin.
// - A note is plain text, not blank, at most MAX_NOTE_LENGTH characters.
// - The audit events name the lead (target), the note's id and its length: never its text.

export { MAX_NOTE_LENGTH };

export type NoteResult = { ok: true; noteId: string } | { ok: false; error: string };

const refuse = (error: string) => ({ ok: false as const, error });

const LEAD_NOT_FOUND = "This lead was not found in this team (it may have been deleted).";
const NOTE_NOT_FOUND = "This note was not found (it may have been deleted meanwhile).";

function noteTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work, { maxWait: 10_000, timeout: 10_000 });
}

/** A member writes a note on a lead of the team. */
export async function addLeadNote(options: { teamId: string; leadId: string; body: unknown; actor: AuditActor }): Promise<NoteResult> {
  const { teamId, leadId, actor } = options;
  const checked = checkNoteBody(options.body);
  if (!checked.ok) return checked;
  const authorId = actor.userId;
  if (!authorId) return refuse("A note is written by a member of the team.");
  return noteTransaction(async (tx): Promise<NoteResult> => {
    if (!(await actorRole(tx, teamId, actor))) return refuse("You are not a member of this team.");
    if (!(await holdLead(tx, teamId, leadId))) return refuse(LEAD_NOT_FOUND);
    const note = await insertNote(tx, { teamId, leadId, authorId, body: checked.body, at: clock() });
    await recordAuditEvent(
      { teamId, action: "lead.note_added", actor, targetId: leadId, details: { note_id: note.id, length: checked.body.length } },
      tx,
    );
    return { ok: true, noteId: note.id };
  });
}

/** The author edits their note. */
export async function editLeadNote(options: {
  teamId: string;
  leadId: string;
  noteId: string;
  body: unknown;
  actor: AuditActor;
}): Promise<NoteResult> {
  const { teamId, leadId, noteId, actor } = options;
  const checked = checkNoteBody(options.body);
  if (!checked.ok) return checked;
  return noteTransaction(async (tx): Promise<NoteResult> => {
    if (!(await actorRole(tx, teamId, actor))) return refuse("You are not a member of this team.");
    const note = await lockNote(tx, { teamId, leadId, noteId });
    if (!note) return refuse(NOTE_NOT_FOUND);
    if (note.authorId === null || note.authorId !== actor.userId) return refuse("Only a note's author edits it.");
    if (note.body === checked.body) return { ok: true, noteId };
    await writeNoteBody(tx, { teamId, noteId, body: checked.body, at: clock() });
    await recordAuditEvent(
      { teamId, action: "lead.note_edited", actor, targetId: leadId, details: { note_id: noteId, length: checked.body.length } },
      tx,
    );
    return { ok: true, noteId };
  });
}

/** The author deletes their note; owners and admins remove anyone's. */
export async function deleteLeadNote(options: { teamId: string; leadId: string; noteId: string; actor: AuditActor }): Promise<NoteResult> {
  const { teamId, leadId, noteId, actor } = options;
  return noteTransaction(async (tx): Promise<NoteResult> => {
    const role = await actorRole(tx, teamId, actor);
    if (!role) return refuse("You are not a member of this team.");
    const note = await lockNote(tx, { teamId, leadId, noteId });
    if (!note) return refuse(NOTE_NOT_FOUND);
    const own = note.authorId !== null && note.authorId === actor.userId;
    if (!own && role === "member") return refuse("Only a note's author, an owner or an admin deletes it.");
    await deleteNote(tx, { teamId, noteId });
    await recordAuditEvent(
      {
        teamId,
        action: "lead.note_deleted",
        actor,
        targetId: leadId,
        details: { note_id: noteId, length: note.body.length, by_author: own },
      },
      tx,
    );
    return { ok: true, noteId };
  });
}
