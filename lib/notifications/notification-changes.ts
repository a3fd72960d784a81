import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { bumpRoutingVersion } from "../routing/assignment-rule-store";
import { writeAssignmentEmails, writeNewLeadEmails } from "../teams/team-store";

// A member's own choices, per team: an email for every new lead (off by default), and an
// email when a lead is assigned to them (on by default; docs/routing.md "Emails"). Each
// change and its audit event in one transaction. The rows are the memberships'
// (lib/teams/team-store.ts, which also reads the choices: newLeadEmailsEnabled,
// assignmentEmailsEnabled).

type Choice = { userId: string; teamId: string; enabled: boolean; actor: AuditActor };

/** Turns the member's new-lead emails on or off; false when they are not a member. */
export async function setNewLeadEmails(options: Choice): Promise<boolean> {
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

/**
 * Turns the member's assignment emails (and New-lead reminders) on or off; false when they
 * are not a member. The intake reads the choice with the team's cached routing, so the
 * change bumps the team's routing version in its transaction.
 */
export async function setAssignmentEmails(options: Choice): Promise<boolean> {
  return db().$transaction(async (tx) => {
    if (!(await writeAssignmentEmails(tx, options))) return false;
    await bumpRoutingVersion(tx, options.teamId);
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "notifications.changed",
        actor: options.actor,
        targetId: options.userId,
        details: { assignment_emails: options.enabled },
      },
      tx,
    );
    return true;
  });
}
