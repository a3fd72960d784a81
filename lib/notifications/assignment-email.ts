import { z } from "zod";
import type { NewJob } from "../jobs/job-store";
import { MAX_ATTEMPTS } from "../jobs/retry-schedule";
import { NEW_LEAD_STATUS } from "../leads/lead-status";
import { oneLine } from "../leads/one-line";
import { newEventId } from "../webhooks/lead-created-event";
import { readAssignmentEmailView, type AssignmentEmailView } from "./assignment-email-store";
import { delayLabel } from "./reminder-delays";

// The emails that tell a member a lead is theirs to work (docs/routing.md "Emails"):
// "assigned" when a lead is assigned to them (at intake by the rules, or by someone else),
// and "reminder" when a lead is still New after the team's time (to its owner, or to the
// owners and admins when it has none). Outbox jobs of kind "email", written in the
// transaction of the change that causes them and sent by the dispatcher with the new-lead
// email's settings (new-lead-email.ts emailHandler). The payload holds ids only: the lead,
// the team and the member's address are read when it is sent, and it is dropped, not
// retried, when the member left the team or turned these emails off, or the lead is gone,
// no longer theirs, or (a reminder) no longer New.

/** The jobs' event types (Job.eventType). */
export const ASSIGNED_EMAIL = "lead.assigned";
export const REMINDER_EMAIL = "lead.new_reminder";

const payloadSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("assigned"), userId: z.string(), leadId: z.string() }),
  z.object({
    kind: z.literal("reminder"),
    userId: z.string(),
    leadId: z.string(),
    /** The team's reminder time when it was queued. */
    minutes: z.number().int().positive(),
    /** Sent to an owner or admin because the lead had no owner. */
    unassigned: z.boolean(),
  }),
]);
export type AssignmentEmailPayload = z.infer<typeof payloadSchema>;

/**
 * Whether a queued email is one of these: they carry a `kind`, new-lead emails do not
 * (jobs queued before these emails existed neither).
 */
export function isAssignmentEmail(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && "kind" in payload;
}

function emailJob(teamId: string, payload: AssignmentEmailPayload, at: Date): NewJob {
  return {
    teamId,
    kind: "email",
    eventId: newEventId(),
    eventType: payload.kind === "assigned" ? ASSIGNED_EMAIL : REMINDER_EMAIL,
    payload: JSON.stringify(payload),
    maxAttempts: MAX_ATTEMPTS,
    runAt: at,
  };
}

/** The email to `userId` that the lead `leadId` of the team was assigned to them. */
export function assignedEmailJob(options: { teamId: string; userId: string; leadId: string; at: Date }): NewJob {
  return emailJob(options.teamId, { kind: "assigned", userId: options.userId, leadId: options.leadId }, options.at);
}

/** The reminder to `userId` that the lead `leadId` is still New after `minutes`. */
export function reminderEmailJob(options: {
  teamId: string;
  userId: string;
  leadId: string;
  minutes: number;
  unassigned: boolean;
  at: Date;
}): NewJob {
  const { teamId, userId, leadId, minutes, unassigned, at } = options;
  return emailJob(teamId, { kind: "reminder", userId, leadId, minutes, unassigned }, at);
}

/** An email ready to send, or why it is dropped. */
export type OutgoingEmail = { to: string; subject: string; text: string } | { dropped: string };

const MANAGER_ROLES = ["owner", "admin"];

/** Why the email is no longer to be sent, or null when it is. */
function dropReason(payload: AssignmentEmailPayload, view: AssignmentEmailView): string | null {
  const { member, lead } = view;
  if (!member || !view.team) return "The user is no longer a member of the team";
  if (!member.notifyAssignments) return "The member turned assignment emails off";
  if (!lead) return "The lead no longer exists";
  if (payload.kind === "assigned") return lead.ownerId === payload.userId ? null : "The lead is no longer assigned to the member";
  if (lead.status !== NEW_LEAD_STATUS) return "The lead is no longer New";
  if (payload.unassigned) {
    if (lead.ownerId !== null) return "The lead has an owner now";
    return MANAGER_ROLES.includes(member.role) ? null : "The member is no longer an owner or admin";
  }
  return lead.ownerId === payload.userId ? null : "The lead is no longer assigned to the member";
}

/**
 * The message, `baseUrl` being the deployment's public URL. The link to the lead comes
 * first, before any text the lead's sender or the team chose; every such text is one line
 * (lib/leads/one-line.ts). Only the lead's name, organization, email and source.
 */
export function assignmentMessage(
  payload: AssignmentEmailPayload,
  team: { slug: string; name: string },
  lead: NonNullable<AssignmentEmailView["lead"]>,
  baseUrl: string,
): { subject: string; text: string } {
  const link = `${baseUrl}/t/${encodeURIComponent(team.slug)}/leads/${encodeURIComponent(payload.leadId)}`;
  const teamName = oneLine(team.name);
  const name = oneLine(lead.name) || payload.leadId;
  const organization = oneLine(lead.organization);
  const named = organization.trim() ? `${name} (${organization})` : name;
  const details = [
    `Name: ${name}`,
    ...(organization.trim() ? [`Organization: ${organization}`] : []),
    ...(lead.email ? [`Email: ${oneLine(lead.email)}`] : []),
    `Source: ${oneLine(lead.source)}`,
  ];
  const turnOff = "turn it off in Team Settings → General → Notifications.";
  const yours = `You get this email because leads of ${teamName} are assigned to you; ${turnOff}`;
  // The team by its slug before the link (a name could hold a URL of its own), by its name at the end.
  const slug = oneLine(team.slug);
  if (payload.kind === "assigned") {
    return {
      subject: `New lead assigned to you: ${named}`,
      text: [`A lead of ${slug} was assigned to you. Open it: ${link}`, "", ...details, "", yours].join("\n"),
    };
  }
  const after = delayLabel(payload.minutes);
  const opening = payload.unassigned
    ? `A lead of ${slug} is still New, and has no owner, after ${after}. Open it: ${link}`
    : `A lead of ${slug} assigned to you is still New after ${after}. Open it: ${link}`;
  const reason = payload.unassigned
    ? `You get this email because you are an owner or admin of ${teamName} and this lead has no owner; ${turnOff}`
    : yours;
  return { subject: `Lead still New after ${after}: ${named}`, text: [opening, "", ...details, "", reason].join("\n") };
}

/** The email of a queued job's payload (one of these kinds), checked against the database now. */
export async function assignmentEmail(teamId: string, raw: unknown, baseUrl: string): Promise<OutgoingEmail> {
  const payload = payloadSchema.parse(raw);
  const view = await readAssignmentEmailView({ teamId, userId: payload.userId, leadId: payload.leadId });
  const dropped = dropReason(payload, view);
  if (dropped) return { dropped };
  return { to: view.member!.email, ...assignmentMessage(payload, view.team!, view.lead!, baseUrl) };
}
