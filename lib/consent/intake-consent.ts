import type { RequestContext } from "../http/request-context";
import type { ExtraFieldValue } from "../leads/parse-lead-input";
import { CONSENT_FIELD, CONSENT_VERSION_FIELD, consentEvidence, type AskedConsent, type ConsentDraft } from "./consent-evidence";
import { findPostedVersion } from "./consent-version-store";
import { withdrewBefore } from "./suppression";
import { findSuppression } from "./suppression-store";

// The intake's consent step (docs/consent.md), called from the channel's one pass
// (lib/intake/store-lead.ts) before the spam checks: the evidence to write with the
// submission, none, or a 422 refusal (a web form's required consent not given). A submission
// of an address on the team's suppression list is kept, its evidence "withdrawn_before"
// (lib/consent/suppression.ts). A submission without an email address nor a `consent` field,
// to a channel that asks for none, costs one property lookup; one with an address, one
// indexed read of the suppression list.

export async function intakeConsent(options: {
  teamId: string;
  channel: "api" | "form" | "connection";
  formId: string | null;
  /** The channel's current consent version (a web form's, a connection's), or null (API keys ask for none). */
  asked: AskedConsent | null;
  /** A connection's reading of the answer mapped to "consent" (lib/connections/consent-answer.ts); absent: none mapped. */
  answer?: "given" | "not_given";
  /** The person's address and browser where the channel's request is not the person's (a connection: what its builder gives, else null). */
  person?: { ip: string | null; userAgent: string | null };
  extraFields: Readonly<Record<string, ExtraFieldValue>>;
  /** The submission's email address (double opt-in, the suppression list). */
  email?: string | null;
  context: RequestContext;
  receivedAt: Date;
}): Promise<ConsentDraft | null> {
  const evidence = await submissionEvidence(options);
  const suppression = options.email ? await findSuppression(options.teamId, options.email) : null;
  return suppression ? withdrewBefore(evidence, suppression, { channel: options.channel, receivedAt: options.receivedAt }) : evidence;
}

async function submissionEvidence(options: Parameters<typeof intakeConsent>[0]): Promise<ConsentDraft | null> {
  const { asked, extraFields } = options;
  if (!asked && !options.answer && !Object.hasOwn(extraFields, CONSENT_FIELD)) return null;
  const named = extraFields[CONSENT_VERSION_FIELD];
  const posted =
    asked && options.formId && typeof named === "string" && named !== asked.id ? await findPostedVersion(options.formId, named) : null;
  return consentEvidence({
    extraFields,
    answer: options.answer,
    email: options.email ?? null,
    channel: options.channel,
    asked,
    posted,
    ip: options.person ? options.person.ip : options.context.ip,
    userAgent: options.person ? options.person.userAgent : (options.context.userAgent ?? null),
    referrer: options.context.referrer ?? null,
    receivedAt: options.receivedAt,
  });
}
