"use client";

import { useRef, useState } from "react";
import { addLeadNoteAction, deleteLeadNoteAction, editLeadNoteAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { MAX_NOTE_LENGTH } from "@/lib/leads/note-body";

// A lead's notes (docs/leads.md "Timeline and notes"): write one, and edit or delete one as
// the server allows (it decides; a refusal is shown as it comes). A success revalidates the
// page, so the timeline shows the change.

const UNREACHABLE = "The server could not be reached; nothing was saved. Try again.";
const textareaClass = `${inputClass} mt-1.5 min-h-24 resize-y`;

/** Any member: a new note on the lead. */
export function AddNoteForm({ slug, leadId }: { slug: string; leadId: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { pending, error, onSubmit } = useFormAction((form) => addLeadNoteAction(slug, leadId, String(form.get("body") ?? "")), {
    unreachable: UNREACHABLE,
    onDone: () => formRef.current?.reset(),
  });
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-2">
      <Field id="lead-note-new" label="Add a note">
        <textarea
          id="lead-note-new"
          name="body"
          required
          maxLength={MAX_NOTE_LENGTH}
          rows={3}
          aria-describedby="lead-note-new-hint"
          className={textareaClass}
        />
        <p id="lead-note-new-hint" className="mt-1 text-xs text-slate-500">
          Plain text, seen by every member of the team.
        </p>
      </Field>
      <FormError error={error} className="text-sm text-red-700" />
      <SubmitButton pending={pending} label="Add note" pendingLabel="Adding…" className={buttonClass("secondary")} />
    </form>
  );
}

/** The author's edit of their note, opened in place. */
function EditNoteForm({
  slug,
  leadId,
  noteId,
  body,
  onClose,
}: {
  slug: string;
  leadId: string;
  noteId: string;
  body: string;
  onClose: () => void;
}) {
  const { pending, error, onSubmit } = useFormAction((form) => editLeadNoteAction(slug, leadId, noteId, String(form.get("body") ?? "")), {
    unreachable: UNREACHABLE,
    onDone: onClose,
  });
  const id = `lead-note-edit-${noteId}`;
  return (
    <form onSubmit={onSubmit} className="mt-2 space-y-2">
      <Field id={id} label="Edit note">
        <textarea
          id={id}
          name="body"
          required
          maxLength={MAX_NOTE_LENGTH}
          rows={3}
          defaultValue={body}
          className={textareaClass}
          autoFocus
        />
      </Field>
      <FormError error={error} className="text-sm text-red-700" />
      <div className="flex gap-2">
        <SubmitButton pending={pending} label="Save note" pendingLabel="Saving…" className={buttonClass("secondary", "sm")} />
        <button type="button" onClick={onClose} className={buttonClass("ghost", "sm")}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A note's text (never HTML, its line breaks kept) with the controls the viewer may use. */
export function NoteBody({
  slug,
  leadId,
  noteId,
  body,
  canEdit,
  canDelete,
}: {
  slug: string;
  leadId: string;
  noteId: string;
  body: string;
  canEdit: boolean;
  canDelete: boolean;
}) {
  const [editing, setEditing] = useState(false);
  if (editing) return <EditNoteForm slug={slug} leadId={leadId} noteId={noteId} body={body} onClose={() => setEditing(false)} />;
  return (
    <>
      <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">{body}</p>
      {canEdit || canDelete ? (
        <div className="mt-1 flex gap-1">
          {canEdit ? (
            <button type="button" onClick={() => setEditing(true)} className={buttonClass("ghost", "sm")}>
              Edit note
            </button>
          ) : null}
          {canDelete ? (
            <ConfirmButton
              label="Delete note"
              className={buttonClass("ghost", "sm")}
              title="Delete this note?"
              description="The note is deleted for good. The audit log records that it was, not what it said."
              confirmLabel="Delete note"
              pendingLabel="Deleting…"
              action={() => deleteLeadNoteAction(slug, leadId, noteId)}
            >
              Delete note
            </ConfirmButton>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
