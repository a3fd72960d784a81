import nodemailer, { type Transporter } from "nodemailer";
import { z } from "zod";
import { db } from "../db/client";
import { env } from "../env";
import type { JobHandler } from "../jobs/dispatcher";
import type { NewLead } from "../leads/new-lead";
import { oneLine } from "../leads/one-line";
import { assignmentEmail, isAssignmentEmail, type OutgoingEmail } from "./assignment-email";
import { chatDisabledEmail, isChatDisabledEmail } from "./chat-disabled-email";
import { consentConfirmationEmail, isConfirmationEmail, type ConfirmationEmail } from "../consent/confirmation-email";

// New-lead emails (docs/webhooks.md "New-lead emails"): one per lead to each member who
// opted in for the team, sent through the outbox like a webhook. The email names the lead
// and links to it; it never carries an API key or secret. Whether the member still wants
// it, and their address, are read when it is sent. The handler here sends the assignment
// emails and New-lead reminders too (assignment-email.ts).

const payloadSchema = z.object({
  userId: z.string(),
  teamSlug: z.string(),
  leadId: z.string(),
  name: z.string(),
  organization: z.string(),
  email: z.string().nullable(),
  source: z.string(),
});
export type NewLeadEmailPayload = z.infer<typeof payloadSchema>;

export function newLeadEmailPayload(options: {
  userId: string;
  team: { slug: string };
  leadId: string;
  lead: NewLead;
  sourceName: string;
}): NewLeadEmailPayload {
  return {
    userId: options.userId,
    teamSlug: options.team.slug,
    leadId: options.leadId,
    name: [options.lead.firstName, options.lead.lastName].filter(Boolean).join(" "),
    organization: options.lead.organization,
    email: options.lead.email,
    source: options.sourceName,
  };
}

export function emailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/**
 * The message for one recipient; `baseUrl` is the deployment's public URL. The link to the
 * lead comes first, before any text the lead's sender chose, and every such text is one
 * line (lib/leads/one-line.ts; leads stored before that rule may still hold line breaks).
 */
export function newLeadMessage(payload: NewLeadEmailPayload, baseUrl: string) {
  const link = `${baseUrl}/t/${encodeURIComponent(payload.teamSlug)}/leads/${encodeURIComponent(payload.leadId)}`;
  const name = oneLine(payload.name);
  const organization = oneLine(payload.organization);
  const lines = [
    `A new lead arrived in ${payload.teamSlug}. Open it: ${link}`,
    "",
    `Name: ${name}`,
    `Organization: ${organization}`,
    ...(payload.email ? [`Email: ${oneLine(payload.email)}`] : []),
    `Source: ${oneLine(payload.source)}`,
    "",
    "You get this email because you turned on new-lead emails for this team (Team Settings → General → Notifications).",
  ];
  return { subject: `New lead: ${name} (${organization})`, text: lines.join("\n") };
}

const holder = globalThis as unknown as { leadIntakeMailer?: Transporter };

function mailer(): Transporter {
  holder.leadIntakeMailer ??= nodemailer.createTransport(env().SMTP_URL!);
  return holder.leadIntakeMailer;
}

/** A new-lead email, to the member while they still want them. */
async function newLeadEmail(teamId: string, raw: unknown, baseUrl: string): Promise<OutgoingEmail> {
  const payload = payloadSchema.parse(raw);
  const member = await db().membership.findFirst({
    where: { userId: payload.userId, teamId, notifyNewLeads: true },
    select: { user: { select: { email: true } } },
  });
  if (!member) return { dropped: "The member no longer wants new-lead emails" };
  return { to: member.user.email, ...newLeadMessage(payload, baseUrl) };
}

/**
 * The dispatcher's handler of every job of kind "email": new-lead emails, and the
 * assignment emails and New-lead reminders (assignment-email.ts), told apart by the payload.
 */
export function emailHandler(options: { baseUrl: string; transport?: Transporter; from?: string }): JobHandler {
  return {
    async run(job) {
      if (!emailConfigured() && !options.transport) return { ok: false, error: "Email is not configured (SMTP_URL)", retry: false };
      const raw: unknown = JSON.parse(job.payload);
      const render: (teamId: string, raw: unknown, baseUrl: string) => Promise<OutgoingEmail | ConfirmationEmail> = isConfirmationEmail(raw)
        ? consentConfirmationEmail
        : isChatDisabledEmail(raw)
          ? chatDisabledEmail
          : isAssignmentEmail(raw)
            ? assignmentEmail
            : newLeadEmail;
      const email = await render(job.teamId, raw, options.baseUrl);
      if ("dropped" in email) return { ok: false, error: email.dropped, retry: false };
      try {
        await (options.transport ?? mailer()).sendMail({ from: options.from ?? env().MAIL_FROM, ...email });
        return { ok: true };
      } catch (error) {
        const code = (error as { responseCode?: number; code?: string }).responseCode ?? (error as { code?: string }).code;
        return { ok: false, error: `SMTP: ${code ?? "send failed"}` };
      }
    },
  };
}
