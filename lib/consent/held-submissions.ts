import { open, seal } from "../api-keys/secret-box";
import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { RequestContext } from "../http/request-context";
import { wakeDeliveries } from "../jobs/wake";
import type { LeadInput } from "../leads/parse-lead-input";
import type { ConsentDraft } from "./consent-evidence";
import { insertConfirmation, leadConfirmed } from "./consent-confirmation-store";
import { confirmationToken, newConfirmationId, tokenHash, verifyConfirmationToken } from "./confirmation-token";
import { confirmationExpiry, personLimit, queueConfirmationEmail, recordAnswer, type LinkAnswer } from "./double-opt-in";
import {
  deleteHeld,
  findHeld,
  findHeldByToken,
  insertHeld,
  lastHeldEmailAt,
  type HeldChannel,
  type HeldRow,
} from "./held-submission-store";
import { recordRequest } from "../request-log/request-log-store";
import { suppressionHash } from "./suppression-key";
import { suppressAddresses } from "./suppression-store";

// "Create the lead only once confirmed" (docs/consent.md): a channel set so holds a submission
// that gave consent, passed the spam checks and has an email address, instead of creating its
// lead, and emails the person the confirmation link within the same limits as double-opt-in.ts
// (confirmed before: the lead is created at once; one email a day; a suppressed address never
// gets here: its evidence is "withdrawn_before", not "pending", and its lead is created). The
// submission is sealed (AES-256-GCM, the deployment's key, bound to the row's id): the table
// holds no personal data in clear, only the address's keyed hash. Confirming creates the lead
// through the intake (lib/intake/confirm-held.ts) and then heldConfirmed; the expiry drops it
// (lib/maintenance/held-expiry.ts), the only way a held submission is lost, by design.

/** What is kept of a held submission: what the intake needs to create its lead as it would have. */
export type HeldSubmission = {
  input: LeadInput;
  consent: ConsentDraft;
  context: RequestContext;
  contentType: string | null;
};

const sealContext = (id: string) => `held-submission:${id}`;

/** The submission of a held row, opened. */
export function openHeld(row: Pick<HeldRow, "id" | "sealed">): HeldSubmission {
  const held = JSON.parse(open(row.sealed, sealContext(row.id))) as HeldSubmission;
  return { ...held, consent: { ...held.consent, consentAt: new Date(held.consent.consentAt) } };
}

/** An email address as a held submission's personKey: the suppression list's keyed hash. */
export const personKeyOf = (email: string) => suppressionHash(email);

export type HoldAnswer =
  | { result: "held"; id: string; emailed: boolean }
  /** The person confirmed before: the lead is created at once, as without holding. */
  | { result: "confirmed_before" };

/**
 * Holds a submission of `email` to `channel`, in one transaction under the person's lock: none
 * when the person confirmed before; else the sealed row and, unless the person was emailed in
 * the last 24 hours (then the row has no link: the person's earlier link creates it too), its
 * email. `spentChallenge`, a web form's proof of work, is spent with it.
 */
export async function holdSubmission(options: {
  teamId: string;
  channel: HeldChannel;
  email: string;
  submission: HeldSubmission;
  at: Date;
  spentChallenge?: { id: string; expiresAt: Date; replayed: () => Error } | null;
}): Promise<HoldAnswer> {
  const { teamId, at } = options;
  const personKey = personKeyOf(options.email);
  const answer = await db().$transaction(async (tx): Promise<HoldAnswer> => {
    const limit = await personLimit(tx, {
      teamId,
      emailKey: options.email.toLowerCase(),
      at,
      alsoEmailedAt: (t) => lastHeldEmailAt(t, teamId, personKey),
    });
    if (limit?.result === "confirmed_before") return limit;
    if (options.spentChallenge) await spendChallenge(tx, options.spentChallenge);
    const id = newConfirmationId();
    const emailed = limit === null;
    await insertHeld(tx, {
      id,
      teamId,
      channelKind: options.channel.kind,
      channelId: options.channel.id,
      personKey,
      tokenHash: emailed ? tokenHash(confirmationToken(id)) : null,
      sealed: seal(JSON.stringify(options.submission), sealContext(id)),
      createdAt: at,
      expiresAt: confirmationExpiry(at),
    });
    if (emailed) await queueConfirmationEmail(tx, { teamId, leadId: null, confirmationId: id, at });
    return { result: "held", id, emailed };
  });
  if (answer.result === "held" && answer.emailed) wakeDeliveries();
  return answer;
}

async function spendChallenge(tx: Tx, challenge: { id: string; expiresAt: Date; replayed: () => Error }): Promise<void> {
  try {
    await tx.spentChallenge.create({ data: { id: challenge.id, expiresAt: challenge.expiresAt }, select: { id: true } });
  } catch (error) {
    throw isUniqueViolation(error) ? challenge.replayed() : error;
  }
}

/** A held submission's link: not one of ours, or valid and open, or expired. */
export type HeldLink =
  { state: "invalid" } | { state: "open" | "expired"; teamName: string; teamId: string; id: string; personKey: string };

/** Reads a link that names a held submission at `at`; changes nothing. */
export async function readHeldLink(teamSlug: string, token: string, at: Date): Promise<HeldLink> {
  const id = verifyConfirmationToken(token);
  if (!id) return { state: "invalid" };
  const row = await findHeldByToken(tokenHash(token));
  if (!row || row.id !== id || row.team.slug !== teamSlug) return { state: "invalid" };
  const state = row.expiresAt.getTime() <= at.getTime() ? "expired" : "open";
  return { state, teamName: row.team.name, teamId: row.teamId, id: row.id, personKey: row.personKey };
}

/** Thrown by the lead's transaction when a held submission's lead was written before (a second confirmation): it rolls back. */
export class HeldSpent extends Error {
  constructor() {
    super("This held submission's lead was created before");
  }
}

/** A held submission's single use, spent in its lead's transaction (lib/leads/lead-writer.ts): a second one rolls back with HeldSpent. */
export const heldUse = (row: Pick<HeldRow, "id" | "expiresAt">) => ({
  // Kept a day past the link's expiry, so the expiry job tells a confirmed row from one never confirmed.
  id: row.id,
  expiresAt: new Date(row.expiresAt.getTime() + 24 * 60 * 60 * 1000),
  replayed: () => new HeldSpent(),
});

/**
 * After a held submission's lead committed: in one transaction, the held row goes, its link
 * becomes a confirmed ConsentConfirmation of the lead (so "confirmed before" holds for the
 * person, the link answers "Already confirmed", and its unsubscribe address keeps working), and,
 * unless the lead was confirmed already (two held submissions joined into one lead), the
 * "confirmed" evidence of `answer` (time, address, user agent) and lead.consent_changed.
 */
export async function heldConfirmed(options: { row: HeldRow; email: string; leadId: string; answer: LinkAnswer }): Promise<void> {
  const { row, leadId } = options;
  await recordAnswer({ teamId: row.teamId, leadId }, "confirmed", options.answer, async (tx) => {
    const before = await leadConfirmed(tx, leadId);
    await deleteHeld(tx, { ids: [row.id] });
    if (row.tokenHash)
      await insertConfirmation(tx, {
        id: row.id,
        teamId: row.teamId,
        leadId,
        emailKey: options.email.toLowerCase(),
        tokenHash: row.tokenHash,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
        confirmedAt: options.answer.at,
        sentById: null,
      });
    return !before;
  });
}

/** Why a held submission left without a lead, as the channel's log says it. */
export const HELD_DROPPED = {
  expired: "Held submission dropped: the person did not confirm before the link expired (double opt-in); no lead was created",
  withdrawn: "Held submission dropped: the person withdrew consent by the email's link (double opt-in); no lead was created",
} as const;

/**
 * The email's unsubscribe of a held link: the person refuses. Their held submissions of the
 * team go at once (they will never confirm), and their address goes on the suppression list,
 * as a withdrawal of a lead's consent would put it. Returns the channels of the rows dropped.
 */
export async function withdrawHeld(link: Extract<HeldLink, { id: string }>, at: Date): Promise<void> {
  const row = await findHeld(link.teamId, link.id);
  if (!row) return;
  const email = openHeld(row).input.email ?? null;
  await db().$transaction(async (tx) => {
    const dropped = await deleteHeld(tx, { teamId: link.teamId, personKeys: [link.personKey] });
    await suppressAddresses(tx, { teamId: link.teamId, emails: [email], reason: "withdrawn", at });
    await logHeldDropped(tx, dropped, "withdrawn");
  });
}

/**
 * Says in each channel's log that its held submission left without a lead (a web form's
 * request log: its page lists it), inside `tx`. No address, no content: the reason only.
 */
export async function logHeldDropped(
  tx: Tx,
  rows: readonly Pick<HeldRow, "teamId" | "channelKind" | "channelId">[],
  why: keyof typeof HELD_DROPPED,
): Promise<void> {
  for (const row of rows)
    if (row.channelKind === "form")
      await recordRequest(
        { teamId: row.teamId, formId: row.channelId, status: 410, error: HELD_DROPPED[why], ip: null, encoding: "none" },
        tx,
      );
}

/** The email of a held submission's confirmation job: the address, the team, the link's validity; null when the row is gone (confirmed or dropped). */
export async function heldForEmail(teamId: string, id: string) {
  const row = await findHeld(teamId, id);
  if (!row) return null;
  return { id: row.id, expiresAt: row.expiresAt, email: openHeld(row).input.email ?? null, team: row.team };
}
