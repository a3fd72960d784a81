import { getCountries, getCountryCallingCode } from "libphonenumber-js/max";

export type PhoneCountry = { code: string; label: string };

const names = new Intl.DisplayNames(["en"], { type: "region" });

/** Every country libphonenumber knows, by English name, for the team's default phone country. */
export const PHONE_COUNTRIES: readonly PhoneCountry[] = getCountries()
  .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
  .sort((a, b) => a.label.localeCompare(b.label, "en"));

const CODES = new Set<string>(getCountries());

export function isPhoneCountry(code: string): boolean {
  return CODES.has(code);
}
