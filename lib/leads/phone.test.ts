import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parsePhone, type ParsedPhone, type PhoneContext } from "./phone";

const UK_MOBILE: ParsedPhone = { e164: "+447911123456", countryCode: "+44", national: "7911123456" };
const US_NUMBER: ParsedPhone = { e164: "+12025550123", countryCode: "+1", national: "2025550123" };
const DE_NUMBER: ParsedPhone = { e164: "+49301234567", countryCode: "+49", national: "301234567" };

type Case = { title: string; raw: string; context?: PhoneContext; expected: ParsedPhone | null };

describe("parsePhone (spec 2.1 phone rules)", () => {
  const cases: Case[] = [
    // Rule 1: a leading + or 00 is international, whatever the context says.
    { title: "leading +", raw: "+44 7911 123456", expected: UK_MOBILE },
    { title: "leading + with punctuation", raw: "+1 (202) 555-0123", expected: US_NUMBER },
    { title: "leading 00", raw: "0044 7911 123456", expected: UK_MOBILE },
    { title: "leading 00, no spaces", raw: "0049301234567", expected: DE_NUMBER },
    { title: "surrounding whitespace", raw: "  +447911123456  ", expected: UK_MOBILE },
    { title: "+ ignores country_code", raw: "+1 202 555 0123", context: { countryCode: "+44" }, expected: US_NUMBER },
    { title: "+ ignores the team default", raw: "+44 7911 123456", context: { defaultCountry: "US" }, expected: UK_MOBILE },
    // Rule 2: a plain number needs country_code ("+44", "44" or "0044").
    { title: 'country_code "+44", national trunk 0', raw: "07911 123456", context: { countryCode: "+44" }, expected: UK_MOBILE },
    { title: 'country_code "44"', raw: "7911123456", context: { countryCode: "44" }, expected: UK_MOBILE },
    { title: 'country_code "0044"', raw: "07911123456", context: { countryCode: "0044" }, expected: UK_MOBILE },
    { title: 'country_code "+1"', raw: "2025550123", context: { countryCode: "+1" }, expected: US_NUMBER },
    { title: 'country_code "(+44)" with punctuation', raw: "7911123456", context: { countryCode: "(+44)" }, expected: UK_MOBILE },
    // Decision: else the team's default country.
    { title: "team default country", raw: "(202) 555-0123", context: { defaultCountry: "US" }, expected: US_NUMBER },
    { title: "team default country in lower case", raw: "030 1234567", context: { defaultCountry: "de" }, expected: DE_NUMBER },
    {
      title: "country_code beats the team default",
      raw: "07911123456",
      context: { countryCode: "+44", defaultCountry: "US" },
      expected: UK_MOBILE,
    },
    {
      title: "country_code beats the team default even when the number is then invalid",
      raw: "2025550123",
      context: { countryCode: "+44", defaultCountry: "US" },
      expected: null,
    },
    {
      title: "an unreadable country_code falls back to the team default",
      raw: "7911123456",
      context: { countryCode: "abc", defaultCountry: "GB" },
      expected: UK_MOBILE,
    },
    // Rule 3: unparseable or invalid → null (the caller skips the field).
    { title: "plain number without country_code or default", raw: "2025550123", expected: null },
    { title: "too short", raw: "+44 12", expected: null },
    { title: "too short for its country_code", raw: "12345", context: { countryCode: "44" }, expected: null },
    { title: "unknown calling code", raw: "+999 1234567", expected: null },
    { title: "letters only", raw: "call me", expected: null },
    { title: "letters only with a country_code", raw: "abc", context: { countryCode: "+44" }, expected: null },
    { title: "a lone 00", raw: "00", context: { countryCode: "44" }, expected: null },
    { title: "empty", raw: "", context: { defaultCountry: "US" }, expected: null },
    { title: "whitespace", raw: "   ", context: { defaultCountry: "US" }, expected: null },
  ];

  for (const { title, raw, context, expected } of cases) {
    test(`${title}: ${JSON.stringify(raw)} ${context ? JSON.stringify(context) : ""}`, () => {
      assert.deepEqual(parsePhone(raw, context), expected);
    });
  }

  test("the stored parts are E.164, +dial code and the national significant number", () => {
    const parsed = parsePhone("+49 (0)30 1234567");
    assert.ok(parsed, "a German number with (0) must parse");
    assert.match(parsed.e164, /^\+[1-9]\d{6,14}$/);
    assert.equal(parsed.e164, parsed.countryCode + parsed.national);
    assert.deepEqual(parsed, DE_NUMBER);
  });
});

// Issue 11: "+999", "0", "+1234" and "+99" as country_code threw "Unknown calling code"
// out of libphonenumber-js and answered 500. The normaliser must be total.
describe("parsePhone is total (never throws)", () => {
  const COUNTRIES = ["GB", "US", "DE", "gb", "", " ", "ZZ", "XX", "001", "UK", "EU", "usa", "1", null, undefined];
  const NATIONAL = ["7911123456", "07911 123456", "2025550123", "12", "0", "000000000000000", "1234567890123456789"];

  test("every dial code 0–9999, bare, with + and with 00, against plain numbers and every kind of team default", () => {
    let parsedSome = 0;
    for (let code = 0; code <= 9999; code++) {
      for (const countryCode of [String(code), `+${code}`, `00${code}`, String(code).padStart(4, "0")]) {
        for (const defaultCountry of [null, "GB", "ZZ"]) {
          const result = parsePhone(NATIONAL[code % NATIONAL.length]!, { countryCode, defaultCountry });
          if (result) {
            parsedSome++;
            assert.match(result.e164, /^\+[1-9]\d{5,15}$/);
          }
        }
      }
    }
    assert.ok(parsedSome > 0, "known dial codes must still parse");
  });

  test("an unknown dial code falls back to the team default country", () => {
    assert.deepEqual(parsePhone("07911 123456", { countryCode: "+999", defaultCountry: "GB" }), UK_MOBILE);
    assert.equal(parsePhone("07911 123456", { countryCode: "+999" }), null);
    assert.equal(parsePhone("7911123456", { countryCode: "0" }), null);
  });

  test("an unknown team default country is no default", () => {
    assert.equal(parsePhone("7911123456", { defaultCountry: "ZZ" }), null);
    assert.equal(parsePhone("7911123456", { defaultCountry: "not a country" }), null);
  });

  test("property: arbitrary phone text, country_code text and team country never throw", () => {
    const digits = fc.stringMatching(/^[0-9 ()+-]{0,24}$/);
    const dialCode = fc.oneof(
      fc.integer({ min: 0, max: 9999 }).chain((n) => fc.constantFrom(String(n), `+${n}`, `00${n}`, ` + ${n} `)),
      fc.string({ maxLength: 10 }),
    );
    const country = fc.oneof(fc.constantFrom(...COUNTRIES), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.oneof(digits, fc.string({ maxLength: 40 })),
        fc.option(dialCode, { nil: undefined }),
        country,
        (raw, countryCode, defaultCountry) => {
          const result = parsePhone(raw, { countryCode, defaultCountry });
          if (result) assert.equal(result.e164, result.countryCode + result.national);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
