import { queueLeadChatJobs } from "../chat/lead-chat-jobs";
import { db } from "../db/client";
import { claimJob } from "../jobs/job-claim-store";
import { insertJobs, type NewJob } from "../jobs/job-store";
import { wakeDeliveries } from "../jobs/wake";
import { settledLeadNumber } from "../leads/lead-number-store";
import { NEW_LEAD_STATUS } from "../leads/lead-status";
import { log } from "../log/logger";
import { startSchedule } from "./schedule";
import { reminderEmailJob } from "../notifications/assignment-email";
import {
  advanceReminder,
  leadsAfter,
  lockReminder,
  reminderRecipients,
  teamsWithReminder,
  type ReminderLead,
} from "../notifications/new-lead-reminder-store";
import { now as clock } from "../time/clock";

// The New-lead reminder (docs/routing.md "Emails"), one of the database's periodic tasks: for
// each team that set one, the leads that came in at least its time ago are looked at once
// each, in seq order, in batches; each still New gets one email (an outbox job of kind
// "email": to its owner, or to every owner and admin of the team when it has none; to those
// who want assignment emails). Each batch is one transaction that locks the team's row,
// writes the emails and moves the team's watermark past every lead it looked at, so a lead
// is reminded of once at most, across restarts and instances. A run looks only at leads up to
// the settled lead number (settledLeadNumber: every lead with that number or a lower one has
// committed or rolled back; on PostgreSQL numbers come from a sequence, and a higher number
// may commit first), so none is ever passed over unseen. Imported leads
// are not reminded of (an import of thousands would send thousands of emails).

export const REMINDER_JOB = "new-lead-reminders";
/** One run per period across all instances. */
export const REMINDER_PERIOD_MS = 60 * 1000;
/** Leads looked at per transaction. */
export const REMINDER_BATCH = 500;
/** Batches per team per run: a team far behind catches up over the next runs. */
const MAX_BATCHES = 20;

export type ReminderRun = { teams: number; leads: number; emails: number };

type Recipient = { userId: string; role: string };

/** The reminders of these leads, all looked at now: one per still-New lead and recipient. */
export function reminderJobs(options: {
  teamId: string;
  minutes: number;
  leads: readonly ReminderLead[];
  recipients: readonly Recipient[];
  at: Date;
}): NewJob[] {
  const { teamId, minutes, at } = options;
  const wanting = new Set(options.recipients.map((recipient) => recipient.userId));
  const managers = options.recipients.filter((recipient) => recipient.role === "owner" || recipient.role === "admin");
  return options.leads
    .filter((lead) => lead.status === NEW_LEAD_STATUS && lead.importId === null)
    .flatMap((lead) => {
      if (lead.ownerId !== null) {
        return wanting.has(lead.ownerId)
          ? [reminderEmailJob({ teamId, userId: lead.ownerId, leadId: lead.id, minutes, unassigned: false, at })]
          : [];
      }
      return managers.map((manager) =>
        reminderEmailJob({ teamId, userId: manager.userId, leadId: lead.id, minutes, unassigned: true, at }),
      );
    });
}

/** One batch of the team's leads, in one transaction: how many were looked at, how many emails, whether more may be due. */
async function remindBatch(
  teamId: string,
  now: Date,
  settled: number,
): Promise<{ leads: number; emails: number; chats: number; more: boolean }> {
  return db().$transaction(
    async (tx) => {
      const reminder = await lockReminder(tx, teamId);
      if (!reminder || reminder.minutes === null) return { leads: 0, emails: 0, chats: 0, more: false };
      const { minutes } = reminder;
      const cutoff = now.getTime() - minutes * 60 * 1000;
      const after = await leadsAfter(tx, { teamId, afterSeq: reminder.afterSeq, upTo: settled, limit: REMINDER_BATCH });
      // In seq order up to the first lead too young: the watermark never passes a lead not yet looked at.
      const young = after.findIndex((lead) => lead.createdAt.getTime() > cutoff);
      const due = young === -1 ? after : after.slice(0, young);
      if (!due.length) return { leads: 0, emails: 0, chats: 0, more: false };
      const waiting = due.filter((lead) => lead.status === NEW_LEAD_STATUS && lead.importId === null);
      const recipients = waiting.length
        ? await reminderRecipients(tx, { teamId, ownerIds: waiting.flatMap((lead) => (lead.ownerId ? [lead.ownerId] : [])) })
        : [];
      const jobs = reminderJobs({ teamId, minutes, leads: waiting, recipients, at: now });
      for (let i = 0; i < jobs.length; i += 500) await insertJobs(jobs.slice(i, i + 500), tx);
      // The team's chat destinations that post reminders hear of the same leads (docs/notifications.md).
      const chats = await queueLeadChatJobs(tx, { teamId, event: "lead.reminder", leadIds: waiting.map((lead) => lead.id), at: now });
      await advanceReminder(tx, { teamId, seq: due.at(-1)!.seq });
      return { leads: due.length, emails: jobs.length, chats, more: due.length === REMINDER_BATCH };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** Looks at every team's leads due for a reminder as of `now`, and queues the reminders. */
export async function sendNewLeadReminders(now: Date): Promise<ReminderRun> {
  const run: ReminderRun = { teams: 0, leads: 0, emails: 0 };
  let chats = 0;
  const settled = await settledLeadNumber(db());
  for (const teamId of await teamsWithReminder()) {
    let looked = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const done = await remindBatch(teamId, now, settled);
      looked += done.leads;
      run.emails += done.emails;
      chats += done.chats;
      if (!done.more) break;
    }
    if (looked) run.teams++;
    run.leads += looked;
  }
  if (run.emails || chats) wakeDeliveries();
  return run;
}

/** One run if this instance wins this period's claim; null when another one has it. */
export async function runNewLeadReminders(now: Date): Promise<ReminderRun | null> {
  // Where no team has a reminder (most databases) a tick is one plain read and no write: on
  // SQLite a write every few seconds would keep another process (a migration) waiting.
  if (!(await teamsWithReminder()).length) return { teams: 0, leads: 0, emails: 0 };
  if (!(await claimJob(REMINDER_JOB, now, REMINDER_PERIOD_MS))) return null;
  return sendNewLeadReminders(now);
}

/**
 * Runs the job every `everyMs` (default 20 s; one run a minute across instances, by the
 * claim) at the app's clock (a test server's may be moved); returns the function that stops it.
 */
export function startNewLeadReminderSchedule(options: { everyMs?: number; clock?: () => Date } = {}): () => void {
  return startSchedule({
    everyMs: options.everyMs ?? 20_000,
    clock: options.clock ?? clock,
    run: runNewLeadReminders,
    report: (run) => {
      if (run?.emails) log("info", "reminders.queued", run);
    },
    failedEvent: "reminders.failed",
  });
}
