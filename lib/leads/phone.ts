// libphonenumber-js's modern build (ES2015+ as published, no Babel object-spread helpers on
// every call): the same version, source and metadata as "libphonenumber-js/max", so the same
// answers (lib/leads/phone-equivalence.test.ts), at less cost per parse (docs/performance.md
// "The phone check"). The package exports it to `import` only: this module cannot be
// require()d, which nothing here does (the app, tsx and Playwright all load it as ESM).
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js/max/es6";

export type ParsedPhone = {
  /** E.164, e.g. +447911123456 */
  e164: string;
  /** Dial code with its plus, e.g. +44 */
  countryCode: string;
  /** National significant number, e.g. 7911123456 */
  national: string;
};

export type PhoneContext = {
  /** The request's country_code: a dial code such as "+44", "44" or "0044". */
  countryCode?: string;
  /** The team's default country (ISO 3166-1 alpha-2), for plain numbers. */
  defaultCountry?: string | null;
};

const DIAL_CODE = /^(?:\+|00)?(\d{1,4})$/;

// libphonenumber-js throws on a calling code or country it has no metadata for ("Unknown
// calling code: 999"); the spec says an unreadable phone is skipped, never an error.
const UNKNOWN = Symbol("unknown calling code or country");

function attempt(parse: () => PhoneNumber | undefined): PhoneNumber | undefined | typeof UNKNOWN {
  try {
    return parse();
  } catch {
    return UNKNOWN;
  }
}

function knownCountry(country: string | null | undefined): CountryCode | undefined {
  const code = country?.trim().toUpperCase();
  return code && isSupportedCountry(code) ? code : undefined;
}

function readPhone(text: string, context: PhoneContext): ParsedPhone | null {
  let parsed: PhoneNumber | undefined | typeof UNKNOWN;
  if (text.startsWith("+")) {
    parsed = attempt(() => parsePhoneNumberFromString(text));
  } else if (text.startsWith("00")) {
    parsed = attempt(() => parsePhoneNumberFromString(`+${text.slice(2)}`));
  } else {
    const dialCode = context.countryCode?.replace(/[\s()-]/g, "").match(DIAL_CODE)?.[1];
    if (dialCode) parsed = attempt(() => parsePhoneNumberFromString(text, { defaultCallingCode: dialCode }));
    // A country_code that names no calling code is as good as none: the team's default applies.
    const country = knownCountry(context.defaultCountry);
    if ((!dialCode || parsed === UNKNOWN) && country) parsed = attempt(() => parsePhoneNumberFromString(text, country));
  }
  const phone = parsed;
  if (phone === undefined || phone === UNKNOWN) return null;
  const valid = attempt(() => (phone.isValid() ? phone : undefined));
  if (valid === undefined || valid === UNKNOWN) return null;
  return Object.freeze({ e164: valid.number, countryCode: `+${valid.countryCallingCode}`, national: valid.nationalNumber });
}

/**
 * The verdicts of the last RECENT distinct inputs (text, country_code, team country), newest
 * last: a create whose phone and mobile_no are the same number, a person who submits again,
 * a search typed twice read libphonenumber once. The answer is a pure function of the three,
 * so a remembered one is the same answer; the parts are frozen, shared by every caller.
 */
const RECENT = 256;
const recent = new Map<string, ParsedPhone | null>();

function remember(key: string, verdict: ParsedPhone | null): ParsedPhone | null {
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
  recent.set(key, verdict);
  return verdict;
}

/**
 * Spec 2.1 phone rules. Returns null when the number cannot be read as a valid
 * phone number; the caller skips the field rather than failing the request. Total:
 * it returns for every text and context, it never throws. The parts returned are frozen.
 */
export function parsePhone(raw: string, context: PhoneContext = {}): ParsedPhone | null {
  const text = raw.trim();
  if (!/\d/.test(text)) return null;
  // The two lengths make the key one input's alone (no text and country_code can pass for
  // another pair); an absent country_code or team country reads as "", as it does below.
  const countryCode = context.countryCode ?? "";
  const key = `${text.length},${countryCode.length}:${text}${countryCode}${context.defaultCountry ?? ""}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  return remember(key, readPhone(text, context));
}
