import { validationError } from "../http/api-error";
import type { ExtraFieldValue } from "../leads/parse-lead-input";

// The intake's consent step (docs/consent.md): what a submission's consent fields prove,
// derived from them as they were sent. The fields are not the spec's (2.1), so they stay in
// extra_fields exactly as sent (spec 2.2); the evidence is a second record beside them,
// never a move. One input (the fields, the channel's consent, the request), one verdict:
// the evidence to write with the submission, none, or a refusal (a required consent not given).

/** The documented fields: an API client's (and a connection's mapped answers), a web form's box and version. */
export const CONSENT_FIELD = "consent";
export const CONSENT_VERSION_FIELD = "consent_version";
export const CONSENT_TEXT_FIELD = "consent_text";
export const CONSENT_PURPOSE_FIELD = "consent_purpose";
export const CONSENT_AT_FIELD = "consent_at";

/** The refusal of a web form's post whose required consent box was not ticked (422, "Validation failed"). */
export const CONSENT_REQUIRED = "Consent is required: tick the consent box to send this form";

/**
 * The note of a connection's delivery whose required consent was not given: kept, never
 * refused (the builder already accepted the person's answers; a refusal would reach no one
 * and lose the lead; docs/consent.md "Connections").
 */
export const REQUIRED_NOT_GIVEN =
  "Required consent not given: the form builder accepted this submission, so the lead was kept. Do not use it for the consent's purpose.";

/**
 * The statuses a piece of evidence records; a lead with none is "none". pending: given on a
 * form with double opt-in, the confirmation email sent; confirmed: the person confirmed by its
 * link; withdrawn: the person used the email's unsubscribe link, or a member recorded it on the
 * lead's page; withdrawn_before: a submission or import row of an address on the team's
 * suppression list (the person withdrew or was erased before; lib/consent/suppression.ts).
 */
export const CONSENT_STATUSES = ["given", "not_given", "pending", "confirmed", "withdrawn", "withdrawn_before"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/** Where evidence came from; "email": a double opt-in link; "import": a CSV import's row of a suppressed address (docs/consent.md). */
export type ConsentChannel = "api" | "form" | "connection" | "manual" | "email" | "import";

/**
 * A version of a channel's consent text, as the intake needs it; `doubleOptIn`: the form emails a
 * confirmation link; `hold`: and creates the lead only once confirmed (held-submissions.ts).
 */
export type AskedConsent = { id: string; required: boolean; doubleOptIn?: boolean; hold?: boolean };

/** The evidence of one submission, before the lead writer gives it its lead and submission. */
export type ConsentDraft = {
  status: ConsentStatus;
  channel: ConsentChannel;
  versionId: string | null;
  text: string | null;
  purpose: string | null;
  consentAt: Date;
  ip: string | null;
  userAgent: string | null;
  pageUrl: string | null;
  /** What a "withdrew consent before" mark says the submission itself sent; absent: none. */
  note?: string | null;
};

const GIVEN = new Set(["true", "yes", "1", "on"]);
const NOT_GIVEN = new Set(["false", "no", "0", "off"]);

/** `consent` as sent: given, not given, or null (absent, a list, or any other value: no evidence). */
export function consentAnswer(value: ExtraFieldValue | undefined): ConsentStatus | null {
  if (value === undefined || Array.isArray(value)) return null;
  const text = String(value).trim().toLowerCase();
  if (GIVEN.has(text)) return "given";
  if (NOT_GIVEN.has(text)) return "not_given";
  return null;
}

// An ISO 8601 date-time with its offset (RFC 3339), years 1000–9999 so both databases hold it.
const ISO_TIME = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** `consent_at` when it is an ISO time with an offset; null otherwise (the receive time is used). */
export function consentTime(value: ExtraFieldValue | undefined): Date | null {
  if (typeof value !== "string" || !ISO_TIME.test(value.trim())) return null;
  const time = new Date(value.trim());
  return Number.isNaN(time.getTime()) ? null : time;
}

const MAX_TEXT = 10_000;
const MAX_HEADER = 2_000;

const textOf = (value: ExtraFieldValue | undefined, max = MAX_TEXT): string | null => {
  if (value === undefined || Array.isArray(value)) return null;
  const text = String(value).trim();
  return text ? text.slice(0, max) : null;
};

/** An absolute http(s) URL (the page the form was on), or null. */
function pageUrlOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href.slice(0, MAX_HEADER) : null;
  } catch {
    return null;
  }
}

export type ConsentRequest = {
  extraFields: Readonly<Record<string, ExtraFieldValue>>;
  /**
   * The channel's own reading of its consent answer (a connection's mapped answer,
   * lib/connections/consent-answer.ts); absent: the `consent` field read as above.
   */
  answer?: "given" | "not_given";
  channel: Exclude<ConsentChannel, "manual" | "email">;
  /** The submission's email address (spec 2.1 `email`): double opt-in needs one to write "pending". */
  email?: string | null;
  /** The consent the web form asks for (its current version), or null. */
  asked: AskedConsent | null;
  /** The form's version a posted `consent_version` names (an older one the visitor's page showed), or null. */
  posted: AskedConsent | null;
  ip: string | null;
  userAgent: string | null;
  referrer: string | null;
  receivedAt: Date;
};

/**
 * The evidence of a submission, or null when it carries none. A web form that asks for consent
 * always has evidence: its box ticked (given) or not (not given), with the version the page
 * showed (a posted `consent_version` of this form, else the current one), at the receive time;
 * a required consent not given is refused (422). A connection that records consent reads its
 * mapped answer (`answer`) the same way, but keeps a required consent not given, noted. Any other submission has evidence only when
 * `consent` reads as given or not given; `consent_at` (an ISO time) is taken from API clients
 * and connections, never from a visitor's browser.
 */
export function consentEvidence(request: ConsentRequest): ConsentDraft | null {
  const fields = request.extraFields;
  const answer = request.answer ?? consentAnswer(fields[CONSENT_FIELD]);
  const version = request.asked ? (request.posted ?? request.asked) : null;
  const requiredNotGiven = version !== null && answer !== "given" && request.asked!.required;
  // A connection cannot refuse: its delivery is kept, the evidence says so.
  if (requiredNotGiven && request.channel !== "connection") throw validationError(CONSENT_REQUIRED);
  if (!version && answer === null) return null;
  const fromVisitor = request.channel === "form";
  // Double opt-in: consent given on such a form, with an address to confirm it, is pending until confirmed.
  const pending = answer === "given" && version !== null && request.asked!.doubleOptIn === true && Boolean(request.email);
  return {
    status: pending ? "pending" : (answer ?? "not_given"),
    channel: request.channel,
    versionId: version?.id ?? null,
    text: version ? null : textOf(fields[CONSENT_TEXT_FIELD]),
    purpose: version ? null : textOf(fields[CONSENT_PURPOSE_FIELD], 200),
    consentAt: (!fromVisitor && consentTime(fields[CONSENT_AT_FIELD])) || request.receivedAt,
    ip: request.ip,
    userAgent: request.userAgent?.slice(0, MAX_HEADER) || null,
    pageUrl: (fromVisitor ? pageUrlOf(request.referrer) : null) ?? pageUrlOf(textOf(fields.landing_page)),
    ...(requiredNotGiven ? { note: REQUIRED_NOT_GIVEN } : {}),
  };
}
