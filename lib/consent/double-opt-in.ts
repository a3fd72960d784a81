import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { env } from "../env";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { insertJobs } from "../jobs/job-store";
import { wakeDeliveries } from "../jobs/wake";
import { newEventId } from "../webhooks/lead-created-event";
import { consentChanged } from "./consent-changed";
import { findSuppression } from "./suppression-store";
import {
  findConfirmation,
  insertConfirmation,
  leadConfirmed,
  lockPerson,
  markConfirmed,
  personConfirmations,
} from "./consent-confirmation-store";
import { confirmationToken, newConfirmationId, tokenHash, verifyConfirmationToken } from "./confirmation-token";
import { insertAnswerConsent, leadConsentState, newestConsentStatus } from "./lead-consent-store";

// Double opt-in (docs/consent.md "Double opt-in"): the confirmation email a submission that
// gave consent on such a form is sent, its limits, and the answers its link takes. Never a
// mail bomb through our forms: a person (an address, per team) who confirmed gets no other
// email, one still pending at most one a day, whoever asks (the intake or "Resend").

export const CONFIRMATION_EMAIL = "consent.confirmation";
export const CONFIRMATION_EMAIL_KIND = "consent_confirmation";
/** At most one confirmation email per person per this long. */
export const EMAIL_INTERVAL_MS = 24 * 60 * 60 * 1000;

export type ConfirmationRequest =
  | { result: "queued"; confirmationId: string }
  | { result: "confirmed_before" }
  | { result: "limited"; nextAt: Date }
  | { result: "no_email" }
  /** The address is on the team's suppression list (the person withdrew or was erased before): never emailed. */
  | { result: "suppressed" };

/**
 * requestConfirmation for a lead just kept (the intake, a release from the quarantine): the lead
 * stays either way, so a failure is logged (without its values) and leaves the lead pending,
 * for "Resend confirmation".
 */
export async function confirmKeptLead(options: { teamId: string; leadId: string; email: string | null; at: Date }): Promise<void> {
  await requestConfirmation(options).catch((error: unknown) =>
    log("error", "consent.confirmation_failed", { teamId: options.teamId, ...summariseError(error) }),
  );
}

/**
 * Queues the confirmation email of the team's lead to `email`, unless the person confirmed
 * before, was sent one in the last 24 hours, or is on the team's suppression list. The row and its email job commit together.
 */
export async function requestConfirmation(options: {
  teamId: string;
  leadId: string;
  email: string | null;
  at: Date;
  /** A member's "Resend confirmation" (audited); absent: the intake. */
  actor?: AuditActor;
}): Promise<ConfirmationRequest> {
  const { teamId, leadId, at } = options;
  if (!options.email) return { result: "no_email" };
  if (await findSuppression(teamId, options.email)) return { result: "suppressed" };
  const emailKey = options.email.toLowerCase();
  const answer = await db().$transaction(async (tx): Promise<ConfirmationRequest> => {
    const limit = await personLimit(tx, { teamId, emailKey, at });
    if (limit) return limit;
    const id = newConfirmationId();
    await insertConfirmation(tx, {
      id,
      teamId,
      leadId,
      emailKey,
      tokenHash: tokenHash(confirmationToken(id)),
      createdAt: at,
      expiresAt: confirmationExpiry(at),
      confirmedAt: null,
      sentById: options.actor?.userId ?? null,
    });
    await queueConfirmationEmail(tx, { teamId, leadId, confirmationId: id, at });
    if (options.actor)
      await recordAuditEvent(
        { teamId, action: "lead.consent_confirmation_sent", actor: options.actor, targetId: leadId, details: { confirmation_id: id } },
        tx,
      );
    return { result: "queued", confirmationId: id };
  });
  if (answer.result === "queued") wakeDeliveries();
  return answer;
}

/**
 * The person's limits inside `tx`, holding their lock (lockPerson) until it ends: confirmed
 * before, or emailed less than 24 hours before (`alsoEmailedAt`: a held submission's email,
 * held-submissions.ts); null when an email may go now.
 */
export async function personLimit(
  tx: Tx,
  options: { teamId: string; emailKey: string; at: Date; alsoEmailedAt?: (tx: Tx) => Promise<Date | null> },
): Promise<Extract<ConfirmationRequest, { result: "confirmed_before" | "limited" }> | null> {
  const { teamId, emailKey, at } = options;
  await lockPerson(tx, teamId, emailKey);
  const person = await personConfirmations(tx, teamId, emailKey);
  if (person.confirmed) return { result: "confirmed_before" };
  const held = options.alsoEmailedAt ? await options.alsoEmailedAt(tx) : null;
  const lastAt = held && (!person.lastAt || held > person.lastAt) ? held : person.lastAt;
  if (lastAt && at.getTime() - lastAt.getTime() < EMAIL_INTERVAL_MS)
    return { result: "limited", nextAt: new Date(lastAt.getTime() + EMAIL_INTERVAL_MS) };
  return null;
}

/** The link's expiry for an email made at `at` (CONSENT_CONFIRMATION_HOURS). */
export const confirmationExpiry = (at: Date) => new Date(at.getTime() + env().CONSENT_CONFIRMATION_HOURS * 60 * 60 * 1000);

/** Queues the confirmation email of `confirmationId` inside `tx` (a lead's, or a held submission's: `leadId` null). */
export async function queueConfirmationEmail(
  tx: Tx,
  options: { teamId: string; leadId: string | null; confirmationId: string; at: Date },
): Promise<void> {
  await insertJobs(
    [
      {
        teamId: options.teamId,
        kind: "email",
        leadId: options.leadId,
        eventId: newEventId(),
        eventType: CONFIRMATION_EMAIL,
        // The id only: the token is signed when the email is sent, never stored.
        payload: JSON.stringify({ kind: CONFIRMATION_EMAIL_KIND, confirmationId: options.confirmationId }),
        maxAttempts: 5,
        runAt: options.at,
      },
    ],
    tx,
  );
}

/** "Resend confirmation" on the team's lead: its address, while its consent is pending; null when the team has no such lead. */
export async function resendConfirmation(options: {
  teamId: string;
  leadId: string;
  actor: AuditActor;
  at: Date;
}): Promise<ConfirmationRequest | { result: "not_pending" } | null> {
  const lead = await leadConsentState({ teamId: options.teamId, leadId: options.leadId });
  if (!lead) return null;
  if (lead.status !== "pending") return { result: "not_pending" };
  return requestConfirmation({ teamId: options.teamId, leadId: options.leadId, email: lead.email, at: options.at, actor: options.actor });
}

/** What a link is: not one of ours (forged, unknown, another team's), or valid and open, used, or expired. */
export type LinkState =
  | { state: "invalid" }
  | { state: "open" | "used" | "expired"; teamName: string; id: string; leadId: string; teamId: string; emailKey: string };

/** Reads a link (`/api/consent/<team slug>/<token>`) at `at`; changes nothing (a GET's answer: mail scanners prefetch links). */
export async function readConfirmationLink(teamSlug: string, token: string, at: Date): Promise<LinkState> {
  const id = verifyConfirmationToken(token);
  if (!id) return { state: "invalid" };
  const row = await findConfirmation(tokenHash(token));
  if (!row || row.id !== id || row.team.slug !== teamSlug) return { state: "invalid" };
  const state = row.confirmedAt ? "used" : row.expiresAt.getTime() <= at.getTime() ? "expired" : "open";
  return { state, teamName: row.team.name, id: row.id, leadId: row.leadId, teamId: row.teamId, emailKey: row.emailKey };
}

/** A link's answer as a request gives it: the person's address and browser, at the app's clock. */
export type LinkAnswer = { teamSlug: string; token: string; ip: string | null; userAgent: string | null; at: Date };

/**
 * Records the person's answer by the link in one transaction, when `allowed` (checked in it)
 * says so: the evidence (the request's time, address and user agent, the version of the lead's
 * pending evidence), the lead.consent_changed deliveries and, for a withdrawal, the address on
 * the suppression list (consent-changed.ts). False when no evidence was written. A held
 * submission's confirmation (held-submissions.ts) writes its own rows in `allowed`.
 */
export async function recordAnswer(
  link: { teamId: string; leadId: string },
  status: "confirmed" | "withdrawn",
  answer: LinkAnswer,
  allowed: (tx: Tx) => Promise<boolean>,
): Promise<boolean> {
  const { teamId, leadId } = link;
  const written = await db().$transaction(async (tx) => {
    if (!(await allowed(tx))) return null;
    const evidence = await insertAnswerConsent(tx, {
      teamId,
      leadId,
      status,
      channel: "email",
      ip: answer.ip,
      userAgent: answer.userAgent,
      at: answer.at,
    });
    if (!evidence) return null;
    return { queued: await consentChanged(tx, { teamId, leadId, status, versionId: evidence.versionId, at: answer.at }) };
  });
  if (written?.queued) wakeDeliveries();
  return written !== null;
}

/**
 * Confirms by the link (the page's POST): once, before it expires, and only if the lead was
 * not confirmed by another of its emails. Records "confirmed" evidence and sends
 * lead.consent_changed; anything else changes nothing.
 */
export async function confirmByLink(answer: LinkAnswer): Promise<LinkState> {
  const link = await readConfirmationLink(answer.teamSlug, answer.token, answer.at);
  if (link.state !== "open") return link;
  const confirmed = await recordAnswer(
    link,
    "confirmed",
    answer,
    async (tx) => !(await leadConfirmed(tx, link.leadId)) && (await markConfirmed(tx, link.id, answer.at)),
  );
  return confirmed ? link : { ...link, state: "used" };
}

/**
 * The email's one-click unsubscribe (RFC 8058, List-Unsubscribe-Post): records "withdrawn"
 * evidence on the lead, once (a second post changes nothing), and sends lead.consent_changed.
 * Valid while the link is ours, whether it was confirmed or has expired.
 */
export async function withdrawByLink(answer: LinkAnswer): Promise<LinkState> {
  const link = await readConfirmationLink(answer.teamSlug, answer.token, answer.at);
  if (link.state === "invalid") return link;
  await recordAnswer(link, "withdrawn", answer, async (tx) => (await newestConsentStatus(tx, link.leadId)) !== "withdrawn");
  return link;
}
