import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/** A stored E.164 number in international format ("+44 7911 123456"); the raw text if it no longer parses. */
export function formatPhone(e164: string | null): string | null {
  if (!e164) return null;
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
