import { db, type Tx } from "../db/client";
import { env } from "../env";

// Every database access of the New-lead reminder (docs/routing.md "Emails"): the team's
// setting (Team.newLeadReminderMinutes, null: off) and its watermark
// (Team.newLeadReminderAfterSeq: every lead up to this seq has been looked at), the leads
// after it, and who is reminded. The job is lib/maintenance/new-lead-reminders.ts.

/** The team's reminder time in minutes; null when it is off (or the team is gone). */
export async function readNewLeadReminder(teamId: string): Promise<number | null> {
  const row = await db().team.findUnique({ where: { id: teamId }, select: { newLeadReminderMinutes: true } });
  return row?.newLeadReminderMinutes ?? null;
}

/**
 * Sets the team's reminder time (null: off). Turning it on moves the watermark to the team's
 * highest lead seq, so the leads already waiting are not all reminded of at once; changing
 * the time of a reminder that is on keeps it. A store's own transaction: one change of the
 * team's row, which it locks first (the reminder job holds the same lock while it works).
 */
export async function writeNewLeadReminder(teamId: string, minutes: number | null): Promise<void> {
  await db().$transaction(async (tx) => {
    const current = await lockReminder(tx, teamId);
    if (!current) return;
    if (minutes === null || current.minutes !== null) {
      await tx.team.update({ where: { id: teamId }, data: { newLeadReminderMinutes: minutes }, select: { id: true } });
      return;
    }
    // The leads after this watermark are those that come in from now on (on PostgreSQL a lead
    // still being written with a lower number counts as already in: numbers are taken
    // before the commit, lib/leads/lead-number-store.ts).
    const highest = await tx.lead.aggregate({ where: { teamId }, _max: { seq: true } });
    await tx.team.update({
      where: { id: teamId },
      data: { newLeadReminderMinutes: minutes, newLeadReminderAfterSeq: highest._max.seq ?? 0 },
      select: { id: true },
    });
  });
}

/** The ids of the teams whose reminder is on. */
export async function teamsWithReminder(): Promise<string[]> {
  const rows = await db().team.findMany({ where: { newLeadReminderMinutes: { not: null } }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

export type ReminderState = { minutes: number | null; afterSeq: number };

/**
 * The team's reminder and watermark, its row locked for the rest of `tx` (PostgreSQL: FOR NO
 * KEY UPDATE, which a lead's insert does not wait for: its foreign key takes only a KEY SHARE
 * lock; SQLite: the transaction holds the write lock from BEGIN IMMEDIATE). Null when the
 * team is gone.
 */
export async function lockReminder(tx: Tx, teamId: string): Promise<ReminderState | null> {
  if (env().DATABASE_PROVIDER === "postgres") {
    const rows = await tx.$queryRaw<{ minutes: number | null; afterSeq: number }[]>`
      SELECT "newLeadReminderMinutes" AS "minutes", "newLeadReminderAfterSeq" AS "afterSeq"
      FROM "Team" WHERE "id" = ${teamId} FOR NO KEY UPDATE`;
    const row = rows[0];
    return row ? { minutes: row.minutes === null ? null : Number(row.minutes), afterSeq: Number(row.afterSeq) } : null;
  }
  const row = await tx.team.findUnique({
    where: { id: teamId },
    select: { newLeadReminderMinutes: true, newLeadReminderAfterSeq: true },
  });
  return row && { minutes: row.newLeadReminderMinutes, afterSeq: row.newLeadReminderAfterSeq };
}

export type ReminderLead = { id: string; seq: number; status: string; ownerId: string | null; importId: string | null; createdAt: Date };

/** The team's first `limit` leads after the watermark and up to `upTo`, in seq order (the (teamId, seq) index). */
export function leadsAfter(tx: Tx, options: { teamId: string; afterSeq: number; upTo: number; limit: number }): Promise<ReminderLead[]> {
  return tx.lead.findMany({
    where: { teamId: options.teamId, seq: { gt: options.afterSeq, lte: options.upTo } },
    orderBy: { seq: "asc" },
    take: options.limit,
    select: { id: true, seq: true, status: true, ownerId: true, importId: true, createdAt: true },
  });
}

/**
 * The members who want reminders (notifyAssignments) among these owners and the team's
 * owners and admins, with their roles.
 */
export async function reminderRecipients(
  tx: Tx,
  options: { teamId: string; ownerIds: readonly string[] },
): Promise<{ userId: string; role: string }[]> {
  return tx.membership.findMany({
    where: {
      teamId: options.teamId,
      notifyAssignments: true,
      OR: [{ role: { in: ["owner", "admin"] } }, { userId: { in: [...new Set(options.ownerIds)] } }],
    },
    select: { userId: true, role: true },
    orderBy: { userId: "asc" },
  });
}

/** Moves the team's watermark to `seq` (every lead up to it has been looked at). */
export async function advanceReminder(tx: Tx, options: { teamId: string; seq: number }): Promise<void> {
  await tx.team.update({ where: { id: options.teamId }, data: { newLeadReminderAfterSeq: options.seq }, select: { id: true } });
}
