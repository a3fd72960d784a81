import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";

// Each member's own choice, per team, of an email for every new lead (off by default).

export async function newLeadEmailsEnabled(options: { userId: string; teamId: string }): Promise<boolean> {
  const membership = await db().membership.findUnique({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    select: { notifyNewLeads: true },
  });
  return membership?.notifyNewLeads ?? false;
}

/** Turns the member's new-lead emails on or off; false when they are not a member. */
export async function setNewLeadEmails(options: { userId: string; teamId: string; enabled: boolean; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.membership.updateMany({
      where: { userId: options.userId, teamId: options.teamId },
      data: { notifyNewLeads: options.enabled },
    });
    if (count === 1) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "notifications.changed",
          actor: options.actor,
          targetId: options.userId,
          details: { new_lead_emails: options.enabled },
        },
        tx,
      );
    }
    return count === 1;
  });
}
