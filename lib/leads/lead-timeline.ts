import { countTargetEvents, listTargetEvents, type AuditAction, type TargetEventRow } from "../audit/audit-log";
import { findLeadMessages, type LeadMessage } from "../jobs/job-store";
import { findUsersByIds, type User } from "../users/user-store";
import { countLeadNotes, findLeadNotes, type LeadNoteItem } from "./lead-note-store";
import { findLeadSubmissions, type LeadSubmissionItem } from "./lead-submission-store";

// A lead's story on its page (docs/leads.md "Timeline and notes"): its submissions, its notes,
// the webhook deliveries and emails sent about it (the outbox's rows, while they are kept)
// and the audit events about it (status and owner changes, merges, deleted notes), newest
// first, at most TIMELINE_LIMIT entries, with how many older ones are left out. One read per
// source, each on its index (submissions, notes and messages: (leadId, createdAt); events: (teamId,
// targetId, createdAt)), each at most TIMELINE_LIMIT rows; a source is counted only when it
// fills its read (then older entries may exist), and the people named in one more read.

export const TIMELINE_LIMIT = 200;

/** A note's own entry tells its adding and its last edit: their events would say it twice. */
const SHOWN_AS_NOTES: readonly AuditAction[] = ["lead.note_added", "lead.note_edited"];

export type TimelineEntry =
  | { kind: "submission"; id: string; at: Date; submission: LeadSubmissionItem }
  | { kind: "note"; id: string; at: Date; note: LeadNoteItem }
  | { kind: "message"; id: string; at: Date; message: LeadMessage }
  | { kind: "event"; id: string; at: Date; event: TargetEventRow };

export type LeadTimeline = {
  /** Newest first, at most `limit`. */
  entries: TimelineEntry[];
  /** How many entries the lead's story has in all, and of them how many are older than those shown. */
  total: number;
  older: number;
  /** The lead's submissions as read (the newest, at most `limit`) and how many it has: its page's list of them. */
  submissions: LeadSubmissionItem[];
  submissionCount: number;
  /** The users the events and emails name (actors, owners, recipients), by id; a deleted user is absent. */
  users: Map<string, User>;
};

/** Of entries at the same instant, a submission comes first (it started the story), then events, then what was sent, then notes. */
const KIND_ORDER = { submission: 0, event: 1, message: 2, note: 3 } as const;

export function newestFirst(a: TimelineEntry, b: TimelineEntry): number {
  return b.at.getTime() - a.at.getTime() || KIND_ORDER[b.kind] - KIND_ORDER[a.kind] || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The user ids an event names: its actor, and an assignment's owners. */
function eventUserIds(event: TargetEventRow): string[] {
  const ids = event.actorUserId ? [event.actorUserId] : [];
  if (event.action === "lead.assigned") {
    for (const value of [event.details?.from, event.details?.to]) if (typeof value === "string") ids.push(value);
  }
  return ids;
}

/** The lead's timeline; the team is in every query, so another team's lead has none. */
export async function findLeadTimeline(options: { teamId: string; leadId: string; limit?: number }): Promise<LeadTimeline> {
  const { teamId, leadId } = options;
  const limit = options.limit ?? TIMELINE_LIMIT;
  const [submissions, notes, events, messages] = await Promise.all([
    findLeadSubmissions({ teamId, leadId, take: limit }),
    findLeadNotes({ teamId, leadId, take: limit }),
    listTargetEvents({ teamId, targetId: leadId, take: limit, except: SHOWN_AS_NOTES }),
    findLeadMessages({ teamId, leadId, take: limit }),
  ]);
  const [noteCount, eventCount, users] = await Promise.all([
    notes.length < limit ? notes.length : countLeadNotes({ teamId, leadId }),
    events.length < limit ? events.length : countTargetEvents({ teamId, targetId: leadId, except: SHOWN_AS_NOTES }),
    findUsersByIds([...events.flatMap(eventUserIds), ...messages.newest.flatMap((message) => (message.userId ? [message.userId] : []))]),
  ]);
  const entries: TimelineEntry[] = [
    ...submissions.newest.map((submission) => ({ kind: "submission" as const, id: submission.id, at: submission.createdAt, submission })),
    ...notes.map((note) => ({ kind: "note" as const, id: note.id, at: note.createdAt, note })),
    ...events.map((event) => ({ kind: "event" as const, id: event.id, at: event.at, event })),
    ...messages.newest.map((message) => ({ kind: "message" as const, id: message.id, at: message.createdAt, message })),
  ]
    .sort(newestFirst)
    .slice(0, limit);
  const total = submissions.count + noteCount + eventCount + messages.count;
  return { entries, total, older: total - entries.length, submissions: submissions.newest, submissionCount: submissions.count, users };
}
