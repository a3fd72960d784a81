import { heldConfirmed, HeldSpent, openHeld, personKeyOf, type HeldLink } from "../consent/held-submissions";
import { personHeld } from "../consent/held-submission-store";
import type { LinkAnswer } from "../consent/double-opt-in";
import { log } from "../log/logger";
import { now } from "../time/clock";
import { summariseError } from "../log/error-summary";
import { findFormForIntake } from "../web-forms/web-form-store";
import { formChannel } from "./submit-web-form";
import { storeSubmission } from "./store-lead";

// A held submission's confirmation (docs/consent.md "Create the lead only once confirmed"), the
// channel's half of the link's POST (lib/consent/confirmation-page.ts takes it from the route):
// the person confirmed their address, so each of their held submissions of the team still valid
// (the link's first, then any held over the 24 h limit, oldest first) becomes a lead through the
// same intake as a new post (derivations, repeat join, routing, lead.created) with the evidence
// it was received with; then its confirmation (held-submissions.ts' heldConfirmed: "confirmed"
// evidence of this request, lead.consent_changed). Each lead is written once: its held id is
// spent in the lead's transaction, so a second confirmation, at the same moment on any
// instance, rolls back (HeldSpent) and writes nothing.

/** Creates the link's held submission's lead (and the person's other held ones); false when another confirmation did first. */
export async function confirmHeldSubmissions(link: Extract<HeldLink, { id: string }>, answer: LinkAnswer): Promise<boolean> {
  const rows = await personHeld(link.teamId, link.personKey, answer.at);
  const linked = rows.find((row) => row.id === link.id);
  if (!linked) return false;
  const confirmed = await createHeldLead(linked, answer);
  for (const row of rows)
    if (row !== linked)
      await createHeldLead(row, answer).catch((error: unknown) =>
        log("error", "consent.held_confirm_failed", { teamId: row.teamId, ...summariseError(error) }),
      );
  return confirmed;
}

/**
 * After a lead's own confirmation link was confirmed (a "now" form's email): the person's held
 * submissions of the team still valid, which the 24 h limit left without a link of their own,
 * become leads too, oldest first. A failure is logged and leaves the row for the next confirmation or the expiry.
 */
export async function confirmPersonHeld(person: { teamId: string; email: string }, answer: LinkAnswer): Promise<void> {
  const rows = await personHeld(person.teamId, personKeyOf(person.email), answer.at);
  for (const row of rows)
    await createHeldLead(row, answer).catch((error: unknown) =>
      log("error", "consent.held_confirm_failed", { teamId: row.teamId, ...summariseError(error) }),
    );
}

/** One held submission's lead and its confirmation; false when its lead was written before. */
async function createHeldLead(row: Parameters<typeof heldConfirmed>[0]["row"], answer: LinkAnswer): Promise<boolean> {
  const held = openHeld(row);
  // A deleted form's held submissions went with it (web-form-changes.ts).
  const form = row.channelKind === "form" ? await findFormForIntake(row.channelId) : null;
  if (!form) return false;
  try {
    const stored = await storeSubmission({ context: held.context, contentType: held.contentType }, formChannel(form), held.input, {
      confirmed: { row, consent: held.consent },
    });
    if (stored.kind !== "created") return false;
    // Recorded after the lead's own evidence (written at the lead's time), so it reads as the newest.
    const at = new Date(Math.max(answer.at.getTime(), now().getTime() + 1));
    await heldConfirmed({ row, email: held.input.email ?? "", leadId: stored.result.leadId, answer: { ...answer, at } });
    return true;
  } catch (error) {
    if (error instanceof HeldSpent) return false;
    throw error;
  }
}
