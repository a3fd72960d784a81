// Issue 47: the cheaper phone check gives libphonenumber's answers, never a different one.
// parsePhoneBefore is the check as it was (phone-before.fixtures.ts); every input below must
// get the same verdict and the same parts from both, the first time (read by libphonenumber)
// and the second (answered from the memo of recent verdicts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";
import { parsePhoneBefore } from "./phone-before.fixtures";
import { parsePhone, type PhoneContext } from "./phone";

const COUNTRIES = getCountries();
const CALLING_CODES = [...new Set(COUNTRIES.map((country) => getCountryCallingCode(country)))];
const EXAMPLES = COUNTRIES.map((country) => ({ country, callingCode: getCountryCallingCode(country), national: examples[country] ?? "" }));

/** Both checks agree on one input, read afresh and from the memo; true when it is a valid number. */
function agrees(raw: string, context: PhoneContext | undefined): boolean {
  const before = parsePhoneBefore(raw, context);
  assert.deepEqual(parsePhone(raw, context), before, `first read of ${JSON.stringify(raw)} ${JSON.stringify(context)}`);
  assert.deepEqual(parsePhone(raw, context), before, `remembered ${JSON.stringify(raw)} ${JSON.stringify(context)}`);
  return before !== null;
}

// Digits as people and phones type them: ASCII, full-width, Arabic-Indic and Eastern
// Arabic-Indic (libphonenumber reads all four), Devanagari (it does not).
const UNICODE_DIGITS = ["０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९"];
const asciiDigits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const digitRun = fc.oneof(
  { weight: 6, arbitrary: asciiDigits(1, 6) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(asciiDigits(1, 6), fc.constantFrom(...UNICODE_DIGITS))
      .map(([digits, script]) => [...digits].map((digit) => script[Number(digit)]).join("")),
  },
);
const separator = fc.constantFrom("", "", "", " ", "-", ".", "/", "\u00a0", "(", ")", " (", ") ", "–", "  ");
/** 0–20 digits in runs, with the separators people put between them. */
const digitGroups = fc
  .array(fc.tuple(separator, digitRun), { maxLength: 5 })
  .map((groups) => groups.map(([sep, digits]) => sep + digits).join(""))
  .filter((text) => text.replace(/\D/g, "").length <= 20);
const prefix = fc.constantFrom("", "", "", "+", "+", "00", "0", "+0", "＋", "++", "+ ", "(+", "tel:+", "011", " ", "\t");
const extension = fc.constantFrom("", "", "", "", " ext. 12", " x123", "#", " #45", ";ext=7", ",,12", " доб 3", " ext", "x", " anexo 9");
const garbage = fc.oneof(
  { weight: 8, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom("call me", "abc", "FLOWERS", "N/A", "0", "-", "+44", "\u0000") },
);

/** Made of pieces: any prefix, digit runs, an extension, letters or other text around. */
const pieced = fc
  .tuple(garbage, prefix, digitGroups, extension, garbage)
  .map(([before, start, digits, ext, after]) => before + start + digits + ext + after);
/** A real mobile number of some country (mostly valid), written in one of the ways people do, its tail changed. */
const nearlyValid = fc
  .tuple(
    fc.constantFrom(...EXAMPLES),
    asciiDigits(0, 3),
    fc.constantFrom(0, 0, 0, 0, 0, -1, 1, -2, 2),
    fc.constantFrom("+", "00", "national", "+ spaced"),
  )
  .map(([{ callingCode, national }, tail, cut, form]) => {
    const digits = national.slice(0, Math.max(1, national.length - tail.length + cut)) + tail;
    if (form === "national") return digits;
    if (form === "+ spaced") return `+${callingCode} ${digits.replace(/(\d{3})(?=\d)/g, "$1 ")}`;
    return `${form}${callingCode}${digits}`;
  });
const raw = fc.oneof(
  { weight: 4, arbitrary: pieced },
  { weight: 5, arbitrary: nearlyValid },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** country_code: every calling code as the spec's examples write it, and what else arrives. */
const countryCode = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...CALLING_CODES), fc.constantFrom("+", "", "00", "(+", " + ", "+0"))
      .map(([code, form]) => (form === "(+" ? `(+${code})` : `${form}${code}`)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("+999", "+1234", "0", "00", "+", "", "abc", "+99", "999", "+44-", "44a", " +44 ", "+4 4", "0044", "٤٤"),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }).map((n) => `+${n}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
/** The team's default country: every country libphonenumber knows, any case, and what is not one. */
const defaultCountry = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(null, undefined) },
  { weight: 5, arbitrary: fc.constantFrom(...COUNTRIES) },
  { weight: 1, arbitrary: fc.constantFrom(...COUNTRIES).map((code) => ` ${code.toLowerCase()} `) },
  { weight: 1, arbitrary: fc.constantFrom("ZZ", "001", "", " ", "UK", "EU", "usa", "1") },
);

describe("the phone check gives the answers it gave before issue 47", () => {
  test("100,000 generated numbers: the same verdict and parts, read afresh and remembered", (t) => {
    let valid = 0;
    let runs = 0;
    fc.assert(
      fc.property(raw, countryCode, defaultCountry, (text, code, country) => {
        runs++;
        if (agrees(text, { countryCode: code, defaultCountry: country })) valid++;
      }),
      { numRuns: 100_000 },
    );
    // The corpus must reach libphonenumber's valid answers as well as its refusals.
    assert.equal(runs, 100_000);
    t.diagnostic(`${valid} of the 100,000 are valid numbers`);
    assert.ok(valid > 15_000 && valid < 85_000, `${valid} of 100,000 generated numbers are valid`);
  });

  const long = "1".repeat(250);
  const TRICKY: [raw: string, context?: PhoneContext][] = [
    ["+44 7911 123456"],
    ["+447911123456"], // Guernsey, not Great Britain: +44 7911 1… is GG's
    ["+447400123456"],
    ["+44 (0) 7911 123456"],
    ["+44 (0)20 7946 0958"],
    ["+1 613 555 0123"], // Canada shares +1 with the US
    ["+1 242 357 1234"], // the Bahamas: a leading-digits country of +1
    ["+7 700 123 4567"], // Kazakhstan shares +7 with Russia
    ["+39 06 6988 1234"], // Italy keeps its leading 0
    ["+225 01 23 45 67 89"],
    ["+49 (0)30 1234567"],
    ["00 44 7911 123456"],
    ["0044 7911 123456"],
    ["000447911123456"],
    ["+０４４ ７９１１ １２３４５６"],
    ["٠٧٩١١١٢٣٤٥٦", { countryCode: "+44" }],
    ["०७९११ १२३४५६", { countryCode: "+44" }],
    ["+44 7911 123456 ext. 123"],
    ["+1 202 555 0123 x12"],
    ["+1-202-555-0123#"],
    ["tel:+1-202-555-0123"],
    ["tel:+1-202-555-0123;ext=5"],
    ["+1 800 FLOWERS"],
    ["1-800-FLOWERS", { countryCode: "+1" }],
    ["+999 1234567"],
    ["+1234 5678"],
    ["+0 123 456 789"],
    ["+"],
    ["00"],
    ["0"],
    ["++44 7911 123456"],
    ["+44 +44 7911 123456"],
    ["\u00a0+44 7911 123456\u00a0"],
    ["\t+44 7911 123456\n"],
    ["+44\u00007911123456"],
    [`+${long}`],
    [`+${long.slice(1)}`],
    [`+44 ${long}`],
    ["07911 123456", { countryCode: "+44" }],
    ["07911 123456", { countryCode: "44" }],
    ["07911 123456", { countryCode: "0044" }],
    ["07911 123456", { countryCode: "(+44)" }],
    ["07911 123456", { countryCode: " + 44 " }],
    ["07911 123456", { countryCode: "+44-" }],
    ["07911 123456", { countryCode: "44a", defaultCountry: "GB" }],
    ["07911 123456", { countryCode: "+999", defaultCountry: "GB" }],
    ["07911 123456", { countryCode: "+1234", defaultCountry: "gb" }],
    ["07911 123456", { countryCode: "0", defaultCountry: " GB " }],
    ["07911 123456", { countryCode: "", defaultCountry: "GB" }],
    ["07911 123456", { defaultCountry: "ZZ" }],
    ["07911 123456", { defaultCountry: "001" }],
    ["2025550123", { countryCode: "1" }],
    ["2025550123", { defaultCountry: "US" }],
    ["2025550123", { countryCode: "+44", defaultCountry: "US" }],
    ["2025550123", { countryCode: "+1", defaultCountry: "GB" }],
    ["6135550123", { countryCode: "+1" }],
    ["030 1234567", { defaultCountry: "de" }],
    ["12345", { countryCode: "44" }],
    ["abc", { countryCode: "+44" }],
    ["", { defaultCountry: "US" }],
    ["   ", { defaultCountry: "US" }],
    // The memo's key: neither text and country_code nor country_code and team country can pass for another pair.
    ["1", { countryCode: "23" }],
    ["12", { countryCode: "3" }],
    ["7911123456", { countryCode: "4", defaultCountry: "4GB" }],
    ["7911123456", { countryCode: "44", defaultCountry: "GB" }],
    ["7911123456", { countryCode: "", defaultCountry: "44GB" }],
    ["7911123456", { countryCode: "+44" }],
    ["7911123456", { countryCode: "+1" }],
    ["7911123456", { countryCode: "+44" }],
    ["7911123456", { defaultCountry: "" }],
    ["7911123456", { defaultCountry: null }],
    ["7911123456"],
  ];
  for (const [text, context] of TRICKY) {
    test(`${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} ${context ? JSON.stringify(context) : ""}`, () => {
      agrees(text, context);
    });
  }

  test("a remembered answer is frozen: no caller can change the next caller's", () => {
    const parsed = parsePhone("+44 7911 123456");
    assert.ok(parsed);
    assert.ok(Object.isFrozen(parsed));
    assert.deepEqual(parsePhone("+44 7911 123456"), { e164: "+447911123456", countryCode: "+44", national: "7911123456" });
  });
});
