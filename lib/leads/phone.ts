import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";

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

/**
 * Spec 2.1 phone rules. Returns null when the number cannot be read as a valid
 * phone number; the caller skips the field rather than failing the request.
 */
export function parsePhone(raw: string, context: PhoneContext = {}): ParsedPhone | null {
  const text = raw.trim();
  if (!/\d/.test(text)) return null;

  let parsed;
  if (text.startsWith("+")) {
    parsed = parsePhoneNumberFromString(text);
  } else if (text.startsWith("00")) {
    parsed = parsePhoneNumberFromString(`+${text.slice(2)}`);
  } else {
    const dialCode = context.countryCode?.replace(/[\s()-]/g, "").match(DIAL_CODE)?.[1];
    if (dialCode) {
      parsed = parsePhoneNumberFromString(text, { defaultCallingCode: dialCode });
    } else if (context.defaultCountry) {
      parsed = parsePhoneNumberFromString(text, context.defaultCountry.toUpperCase() as CountryCode);
    }
  }
  if (!parsed?.isValid()) return null;
  return { e164: parsed.number, countryCode: `+${parsed.countryCallingCode}`, national: parsed.nationalNumber };
}
