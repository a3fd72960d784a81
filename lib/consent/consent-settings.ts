import type { ConsentSettings } from "./consent-version-store";

// "Ask for consent" as a web form's settings send it (one FormData), checked: plain text,
// a purpose, an optional https privacy-policy link, required or optional.

export const MAX_CONSENT_TEXT = 2_000;
export const MAX_CONSENT_PURPOSE = 100;
export const MAX_POLICY_URL = 2_000;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** An https URL without credentials, or null. */
export function parsePolicyUrl(value: string): string | null {
  if (value.length > MAX_POLICY_URL) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

/** The consent a form asks for, `null` when "Ask for consent" is off, or the problem to show. */
export function parseConsentSettings(
  form: FormData,
): { settings: ConsentSettings | null; doubleOptIn: boolean; hold: boolean } | { problem: string } {
  if (form.get("consent_asked") !== "on") return { settings: null, doubleOptIn: false, hold: false };
  const consentText = text(form, "consent_text");
  if (!consentText) return { problem: "Write the consent text the visitor agrees to" };
  if (consentText.length > MAX_CONSENT_TEXT) return { problem: `The consent text can be at most ${MAX_CONSENT_TEXT} characters` };
  const purpose = text(form, "consent_purpose");
  if (!purpose) return { problem: "Name the purpose of the consent, for example “Marketing emails”" };
  if (purpose.length > MAX_CONSENT_PURPOSE) return { problem: `The purpose can be at most ${MAX_CONSENT_PURPOSE} characters` };
  const policyText = text(form, "consent_policy_url");
  const policyUrl = policyText ? parsePolicyUrl(policyText) : null;
  if (policyText && !policyUrl) return { problem: "The privacy policy must be a full https:// address" };
  return {
    settings: { text: consentText, purpose, policyUrl, required: form.get("consent_required") === "on" },
    doubleOptIn: form.get("consent_double_opt_in") === "on",
    // "Create the lead only once confirmed"; anything else: now, pending (the default).
    hold: form.get("consent_double_opt_in") === "on" && form.get("consent_create_lead") === "once_confirmed",
  };
}

/** A consent recorded on a lead's page (given another way: phone, paper), as its dialog sends it, checked. */
export function parseRecordedConsent(
  form: FormData,
  at: Date,
): { consent: { status: "given" | "not_given"; text: string; purpose: string; note: string; consentAt: Date } } | { problem: string } {
  const status = text(form, "status");
  if (status !== "given" && status !== "not_given") return { problem: "Choose whether consent was given" };
  const consentText = text(form, "text");
  if (!consentText) return { problem: "Write what the person agreed to" };
  if (consentText.length > MAX_CONSENT_TEXT) return { problem: `The text can be at most ${MAX_CONSENT_TEXT} characters` };
  const purpose = text(form, "purpose");
  if (!purpose) return { problem: "Name the purpose of the consent, for example “Marketing emails”" };
  if (purpose.length > MAX_CONSENT_PURPOSE) return { problem: `The purpose can be at most ${MAX_CONSENT_PURPOSE} characters` };
  const note = text(form, "note");
  if (!note) return { problem: "Say how consent was given, for example “By phone, call of 2 December”" };
  if (note.length > MAX_CONSENT_TEXT) return { problem: `The note can be at most ${MAX_CONSENT_TEXT} characters` };
  return { consent: { status, text: consentText, purpose, note, consentAt: at } };
}
