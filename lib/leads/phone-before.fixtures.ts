// parsePhone as it was before issue 47 made it cheaper, kept word for word as the reference
// the equivalence test (phone-equivalence.test.ts) and the A/B measurement
// (scripts/bench/phone-check.ts) compare the current one with: the same verdict and the same
// parts for every input, never a different answer.
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js/max";
import type { ParsedPhone, PhoneContext } from "./phone";

const DIAL_CODE = /^(?:\+|00)?(\d{1,4})$/;

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

export function parsePhoneBefore(raw: string, context: PhoneContext = {}): ParsedPhone | null {
  const text = raw.trim();
  if (!/\d/.test(text)) return null;

  let parsed: PhoneNumber | undefined | typeof UNKNOWN;
  if (text.startsWith("+")) {
    parsed = attempt(() => parsePhoneNumberFromString(text));
  } else if (text.startsWith("00")) {
    parsed = attempt(() => parsePhoneNumberFromString(`+${text.slice(2)}`));
  } else {
    const dialCode = context.countryCode?.replace(/[\s()-]/g, "").match(DIAL_CODE)?.[1];
    if (dialCode) parsed = attempt(() => parsePhoneNumberFromString(text, { defaultCallingCode: dialCode }));
    const country = knownCountry(context.defaultCountry);
    if ((!dialCode || parsed === UNKNOWN) && country) parsed = attempt(() => parsePhoneNumberFromString(text, country));
  }
  const phone = parsed;
  if (phone === undefined || phone === UNKNOWN) return null;
  const valid = attempt(() => (phone.isValid() ? phone : undefined));
  if (valid === undefined || valid === UNKNOWN) return null;
  return { e164: valid.number, countryCode: `+${valid.countryCallingCode}`, national: valid.nationalNumber };
}
