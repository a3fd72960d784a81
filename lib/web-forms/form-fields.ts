import { CHALLENGE_FIELD } from "./challenge";

// The fields a web form posts for itself, beside the lead's: the honeypot, the
// proof-of-work solution and what form tools add. The snippets write them; the intake
// (lib/intake/submit-web-form.ts) reads them and never stores them as extra fields.

/** The hidden field people leave empty (Formspree's name, so its forms move over as they are). */
export const HONEYPOT_FIELD = "_gotcha";

/** Fields a form adds for itself: never a lead's extra field. */
export const FORM_CONTROL_FIELDS: ReadonlySet<string> = new Set([
  HONEYPOT_FIELD,
  CHALLENGE_FIELD,
  "submit",
  "g-recaptcha-response",
  "cf-turnstile-response",
  "h-captcha-response",
]);
