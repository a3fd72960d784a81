import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { writeNewLeadEmails } from "../teams/team-store";

// A member's own choice, per team, of an email for every new lead (off by default): the
// change and its audit event in one transaction. The rows are the memberships'
// (lib/teams/team-store.ts, which also reads the choice: newLeadEmailsEnabled).

/** Turns the member's new-lead emails on or off; false when they are not a member. */
export async function setNewLeadEmails(options: { userId: string; teamId: string; enabled: boolean; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    if (!(await writeNewLeadEmails(tx, options))) return false;
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
    return true;
  });
}
