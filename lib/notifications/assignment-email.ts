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
/** "Ada Lovelace submitted again": a repeat submission joined a lead (docs/leads.md "Repeat submissions"). */
export const SUBMITTED_EMAIL = "lead.submitted_again";

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
  z.object({
    kind: z.literal("submitted"),
    userId: z.string(),
    leadId: z.string(),
    submissionId: z.string(),
    /** The names of the lead's fields it filled (request names; extra fields as extra_fields.<name>): never their values. */
    filled: z.array(z.string()).default([]),
    /** Sent to a member who gets new-lead emails because the lead had no owner. */
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

const EVENT_TYPES = { assigned: ASSIGNED_EMAIL, reminder: REMINDER_EMAIL, submitted: SUBMITTED_EMAIL } as const;

function emailJob(teamId: string, payload: AssignmentEmailPayload, at: Date): NewJob {
  return {
    teamId,
    kind: "email",
    leadId: payload.leadId,
    eventId: newEventId(),
    eventType: EVENT_TYPES[payload.kind],
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

/** "Submitted again" to `userId`: the submission `submissionId` joined the lead `leadId` (its owner's, or, `unassigned`, a new-lead subscriber's). */
export function submittedEmailJob(options: {
  teamId: string;
  userId: string;
  leadId: string;
  submissionId: string;
  filled: string[];
  unassigned: boolean;
  at: Date;
}): NewJob {
  const { teamId, userId, leadId, submissionId, filled, unassigned, at } = options;
  return emailJob(teamId, { kind: "submitted", userId, leadId, submissionId, filled, unassigned }, at);
}

/** An email ready to send, or why it is dropped. */
export type OutgoingEmail = { to: string; subject: string; text: string } | { dropped: string };

const MANAGER_ROLES = ["owner", "admin"];

/** Why the email is no longer to be sent, or null when it is. */
function dropReason(payload: AssignmentEmailPayload, view: AssignmentEmailView): string | null {
  const { member, lead } = view;
  if (!member || !view.team) return "The user is no longer a member of the team";
  if (!lead) return "The lead no longer exists";
  if (payload.kind === "submitted") {
    if (!view.submission) return "The submission no longer exists";
    if (!payload.unassigned) {
      if (!member.notifyAssignments) return "The member turned assignment emails off";
      return lead.ownerId === payload.userId ? null : "The lead is no longer assigned to the member";
    }
    if (!member.notifyNewLeads) return "The member turned new-lead emails off";
    return lead.ownerId === null ? null : "The lead has an owner now";
  }
  if (!member.notifyAssignments) return "The member turned assignment emails off";
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
  submission: AssignmentEmailView["submission"] = null,
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
  if (payload.kind === "submitted") {
    const reason = payload.unassigned
      ? `You get this email because you get new-lead emails for ${teamName} and this lead has no owner; turn them off in Team Settings → General → Notifications.`
      : yours;
    return {
      subject: `${name} submitted again`,
      text: [
        `${name}, a lead of ${slug}, submitted again. Open it: ${link}`,
        "",
        ...details,
        "",
        ...whatIsNew(submission, payload.filled),
        "",
        reason,
      ].join("\n"),
    };
  }
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
  const view = await readAssignmentEmailView({
    teamId,
    userId: payload.userId,
    leadId: payload.leadId,
    submissionId: payload.kind === "submitted" ? payload.submissionId : null,
  });
  const dropped = dropReason(payload, view);
  if (dropped) return { dropped };
  return { to: view.member!.email, ...assignmentMessage(payload, view.team!, view.lead!, baseUrl, view.submission) };
}

/** The most lines of "what this submission sent" in a "submitted again" email; the lead's page has the rest. */
const MOST_SENT_LINES = 20;
/** The longest value shown in it. */
const LONGEST_VALUE = 200;

const shown = (value: unknown) => {
  const text = oneLine(typeof value === "string" ? value : JSON.stringify(value));
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE)}…` : text;
};

/**
 * What is new in the submission, one line each, so the email says it without opening the
 * lead: the fields it filled on the lead (they were empty), then what it sent that the lead
 * does not hold as it is now (the lead kept its own value).
 */
export function whatIsNew(submission: AssignmentEmailView["submission"], filled: readonly string[]): string[] {
  if (!submission) return [];
  const extra = (submission.fields.extra_fields ?? {}) as Record<string, unknown>;
  const valueOf = (name: string) =>
    name.startsWith("extra_fields.") ? extra[name.slice("extra_fields.".length)] : submission.fields[name];
  const filledNames = new Set(filled.map((name) => name.replace(/^extra_fields\./, "")));
  const lines = [
    ...filled.map((name) => `${oneLine(name.replace(/^extra_fields\./, ""))}: ${shown(valueOf(name))} (filled in)`),
    ...submission.differs
      .filter(([name]) => !filledNames.has(name))
      .map(([name, value]) => `${oneLine(name)}: ${shown(value)} (the lead keeps its own)`),
  ];
  if (!lines.length) return ["It sent nothing the lead does not already hold."];
  const listed = lines.slice(0, MOST_SENT_LINES);
  const more = lines.length - listed.length;
  return ["New in this submission:", ...listed, ...(more > 0 ? [`and ${more} more on the lead's page`] : [])];
}
