import type { ConsentChannel, ConsentDraft, ConsentStatus } from "./consent-evidence";
import type { SuppressionReason } from "./suppression-store";

// "Withdrew consent before" (docs/consent.md "Withdrawal and the suppression list"): a
// submission or an import row of an address on the team's suppression list is kept as any
// other (never refused, never lost), and its evidence says so: status "withdrawn_before", so
// the lead's page, the export's consent_status and lead.created show it, and no double opt-in
// email goes out (only "pending" evidence asks for one). What the submission itself said
// about consent stays in its extra_fields as sent, and in the evidence's note.

const SAID: Record<ConsentStatus, string> = {
  given: "consent given",
  not_given: "consent not given",
  pending: "consent given (double opt-in: no confirmation email sent)",
  confirmed: "consent confirmed",
  withdrawn: "consent withdrawn",
  withdrawn_before: "no consent fields",
};

const REASON: Record<SuppressionReason, string> = {
  withdrawn: "withdrew consent",
  erased: "was erased",
};

/** The evidence of a submission of a suppressed address: its own evidence (or none) marked "withdrawn_before". */
export function withdrewBefore(
  evidence: ConsentDraft | null,
  suppression: { reason: SuppressionReason; createdAt: Date },
  submission: { channel: Exclude<ConsentChannel, "manual" | "email">; receivedAt: Date },
): ConsentDraft {
  const base: ConsentDraft = evidence ?? {
    status: "withdrawn_before",
    channel: submission.channel,
    versionId: null,
    text: null,
    purpose: null,
    consentAt: submission.receivedAt,
    ip: null,
    userAgent: null,
    pageUrl: null,
  };
  const said = evidence ? SAID[evidence.status] : "no consent fields";
  return {
    ...base,
    status: "withdrawn_before",
    note: `This address is on the team's suppression list: the person ${REASON[suppression.reason]} on ${suppression.createdAt.toISOString()}. This submission: ${said}.`,
  };
}
