import type { TargetEventRow } from "@/lib/audit/audit-log";
import { isLeadStatus, LEAD_STATUS_LABELS } from "@/lib/leads/lead-status";
import type { LeadMessage } from "@/lib/jobs/job-store";
import type { LeadTimeline } from "@/lib/leads/lead-timeline";
import type { User } from "@/lib/users/user-store";
import { ACTION_LABEL } from "@/components/audit/audit-table";
import { AddNoteForm, NoteBody } from "@/components/leads/note-forms";
import { CHANNEL_LABEL } from "@/components/leads/submission-list";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";

// A lead's story on its page (docs/leads.md "Timeline and notes"), newest first: submissions,
// notes (text only, with the controls the viewer may use) and the audit events about the lead
// in plain words. Every value is rendered as text, never HTML.

const userName = (user: Pick<User, "name" | "email">) => user.name?.trim() || user.email;

function personName(users: Map<string, User>, id: string | null): string {
  if (id === null) return "no one";
  const user = users.get(id);
  return user ? userName(user) : "a former user";
}

function actorName(users: Map<string, User>, event: TargetEventRow): string {
  if (event.actorUserId === null) return event.via === "cli" ? "the system" : "a former user";
  return personName(users, event.actorUserId);
}

const statusWord = (value: unknown) => (isLeadStatus(value) ? LEAD_STATUS_LABELS[value] : String(value ?? "—"));

const ASSIGN_REASON: Record<string, string> = {
  member_removed: " (the owner left the team)",
  routing_waited: " (the assignment rule's next member on duty)",
};

/** What the event did, in plain words. */
function eventWords(event: TargetEventRow, users: Map<string, User>): string {
  const details = event.details ?? {};
  switch (event.action) {
    case "lead.status_changed":
      return `Status changed from ${statusWord(details.from)} to ${statusWord(details.to)}`;
    case "lead.assigned": {
      const to = typeof details.to === "string" ? details.to : null;
      const reason = typeof details.reason === "string" ? (ASSIGN_REASON[details.reason] ?? "") : "";
      return `${to ? `Assigned to ${personName(users, to)}` : "Unassigned"}${reason}`;
    }
    case "lead.merged": {
      const count = typeof details.count === "number" ? details.count : 0;
      const ids = typeof details.ids === "string" && details.ids ? `: ${details.ids.split(",").join(", ")}` : "";
      return `${count === 1 ? "1 lead" : `${count} leads`} merged into this one${ids}`;
    }
    case "lead.note_deleted":
      return details.by_author === false ? "A note was removed" : "A note was deleted by its author";
    default:
      return ACTION_LABEL[event.action] ?? event.action;
  }
}

/** What each email is, by its event type (lib/notifications/). */
const EMAIL_LABEL: Record<string, string> = {
  "lead.created": "New lead",
  "lead.assigned": "Assigned to you",
  "lead.new_reminder": "Still new",
  "lead.submitted_again": "Submitted again",
  "consent.confirmation": "Consent confirmation (to the person)",
};

/** Where a message stands, in plain words. */
function messageState(message: LeadMessage): string {
  const tries = message.attempts === 1 ? "1 attempt" : `${message.attempts} attempts`;
  switch (message.state) {
    case "delivered":
      return message.kind === "email" ? "sent" : "delivered";
    case "failed":
      return `failed after ${tries}`;
    case "cancelled":
      return "cancelled";
    case "running":
      return "sending";
    default:
      return message.attempts ? `queued, ${tries} so far` : "queued";
  }
}

/** A webhook delivery or an email about the lead, in plain words. */
function messageWords(message: LeadMessage, users: Map<string, User>): string {
  if (message.kind === "email") {
    const label = EMAIL_LABEL[message.eventType] ?? message.eventType;
    return `Email "${label}" to ${personName(users, message.userId)}`;
  }
  return `Webhook ${message.eventType} to ${message.endpointHost ?? "a deleted endpoint"}`;
}

export type TimelineViewer = { id: string; canManage: boolean };

/** The lead's timeline, and the form that adds a note. `submissionLabels`: what received each submission, by its id. */
export function LeadTimelineSection({
  slug,
  leadId,
  timeline,
  submissionLabels,
  viewer,
}: {
  slug: string;
  leadId: string;
  timeline: LeadTimeline;
  submissionLabels: Map<string, string | null>;
  viewer: TimelineViewer;
}) {
  const { entries, older, users } = timeline;
  return (
    <section aria-labelledby="timeline-heading" className={`${cardClass} p-5`}>
      <h2 id="timeline-heading" className="text-sm font-semibold text-slate-900">
        Timeline
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Submissions, notes, changes and what was sent about it, newest first
        {older > 0 ? `; the newest ${entries.length.toLocaleString("en-US")} shown, ${older.toLocaleString("en-US")} older not shown` : ""}.
      </p>
      <div className="mt-4">
        <AddNoteForm slug={slug} leadId={leadId} />
      </div>
      {entries.length ? (
        <ol aria-label="Timeline, newest first" className="mt-4 divide-y divide-slate-100">
          {entries.map((entry) => (
            <li key={`${entry.kind}-${entry.id}`} data-kind={entry.kind} className="py-3 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  {entry.kind === "submission" ? (
                    <>
                      <span className="font-medium text-slate-900">Submission: {CHANNEL_LABEL[entry.submission.channel]}</span>
                      {submissionLabels.get(entry.id) ? (
                        <>
                          {" "}
                          <span className="text-slate-600">{submissionLabels.get(entry.id)}</span>
                        </>
                      ) : null}
                    </>
                  ) : entry.kind === "note" ? (
                    <span className="font-medium text-slate-900">
                      Note by {entry.note.author ? userName(entry.note.author) : "a former user"}
                      {entry.note.updatedAt ? <span className="font-normal text-slate-500"> (edited)</span> : null}
                    </span>
                  ) : entry.kind === "message" ? (
                    <>
                      <span className="font-medium text-slate-900">{messageWords(entry.message, users)}</span>{" "}
                      <span className="text-slate-600">{messageState(entry.message)}</span>
                    </>
                  ) : (
                    <>
                      <span className="font-medium text-slate-900">{eventWords(entry.event, users)}</span>{" "}
                      <span className="text-slate-600">by {actorName(users, entry.event)}</span>
                    </>
                  )}
                </span>
                <span className="text-xs text-slate-500">
                  <DateTime value={entry.at} />
                </span>
              </div>
              {entry.kind === "note" ? (
                <NoteBody
                  slug={slug}
                  leadId={leadId}
                  noteId={entry.note.id}
                  body={entry.note.body}
                  canEdit={entry.note.authorId !== null && entry.note.authorId === viewer.id}
                  canDelete={(entry.note.authorId !== null && entry.note.authorId === viewer.id) || viewer.canManage}
                />
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
