import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KNOWN_FIELDS, LIMITS } from "./lead-input-schema";
import type { RawField } from "../http/read-body";
import { parseLeadInput, type LeadInput } from "./parse-lead-input";
import { assertRejected, withName } from "./parse-lead-input.fixtures";

// parseLeadInput (lib/leads/parse-lead-input.ts) on the known fields of spec 2.1: each one
// read, trimmed and kept out of extraFields, empty values as not sent, numbers kept as given;
// the name required and checked before the email; each field's length limit. Values no field
// can hold: parse-lead-input-refused-values.test.ts; extra fields:
// parse-lead-input-extra-fields.test.ts.

describe("parseLeadInput: known fields", () => {
  // One row per field of spec 2.1: what is sent, and what the input must hold.
  const knownFields: Record<string, [sent: unknown, parsed: string]> = {
    name: ["  Ada Lovelace ", "Ada Lovelace"],
    email: [" ada@example.com ", "ada@example.com"],
    phone: ["+44 7911 123456", "+44 7911 123456"],
    mobile_no: ["07911 123456", "07911 123456"],
    country_code: ["+44", "+44"],
    source: ["Website", "Website"],
    organization: ["Analytical Engines Ltd", "Analytical Engines Ltd"],
    job_title: ["Mathematician", "Mathematician"],
    website: ["https://example.com/about", "https://example.com/about"],
    territory: ["Europe", "Europe"],
    industry: ["Computing", "Computing"],
    annual_revenue: ["1,000,000 GBP", "1,000,000 GBP"],
    no_of_employees: ["50-100", "50-100"],
    currency: ["EUR", "EUR"],
    utm_source: ["newsletter", "newsletter"],
    utm_medium: ["email", "email"],
    utm_campaign: ["launch", "launch"],
    utm_term: ["engines", "engines"],
    utm_content: ["header-link", "header-link"],
  };

  test("the table covers every known field of the schema", () => {
    assert.deepEqual(Object.keys(knownFields).sort(), [...KNOWN_FIELDS].sort());
  });

  test("every known field is read, trimmed, and kept out of extraFields", () => {
    const input = parseLeadInput(Object.entries(knownFields).map(([name, [sent]]) => [name, sent]));
    const expected = Object.fromEntries(Object.entries(knownFields).map(([name, [, parsed]]) => [name, parsed]));
    assert.deepEqual(input, { ...expected, extraFields: {} });
  });

  for (const [value, label] of [
    ["", "an empty string"],
    ["   ", "whitespace"],
    [" \t\n ", "tabs and newlines"],
    [null, "null"],
    [undefined, "undefined"],
  ] as const) {
    test(`${label} counts as not sent, for known and extra fields`, () => {
      const input = parseLeadInput(withName(["email", value], ["organization", value], ["custom", value]));
      assert.deepEqual(input, { name: "Ada Lovelace", extraFields: {} });
    });
  }

  test("numbers and booleans in known fields are read as text", () => {
    const input = parseLeadInput([
      ["name", 12345],
      ["phone", 447911123456],
      ["job_title", true],
      ["territory", false],
      ["utm_term", 0],
    ]);
    assert.deepEqual(input, {
      name: "12345",
      phone: "447911123456",
      job_title: "true",
      territory: "false",
      utm_term: "0",
      extraFields: {},
    });
  });

  const asGiven: [field: "annual_revenue" | "no_of_employees", sent: unknown, stored: string][] = [
    ["annual_revenue", 1_000_000, "1000000"],
    ["annual_revenue", 12.5, "12.5"],
    ["annual_revenue", "$1.2M", "$1.2M"],
    ["annual_revenue", "1,000,000", "1,000,000"],
    ["annual_revenue", "0012", "0012"],
    ["no_of_employees", 250, "250"],
    ["no_of_employees", "50-100", "50-100"],
    ["no_of_employees", "about 10", "about 10"],
  ];
  for (const [field, sent, stored] of asGiven) {
    test(`${field} ${JSON.stringify(sent)} is kept as given: ${JSON.stringify(stored)}`, () => {
      assert.equal(parseLeadInput(withName([field, sent]))[field], stored);
    });
  }

  test("currency is accepted as input (createLead overrides it)", () => {
    assert.equal(parseLeadInput(withName(["currency", "JPY"])).currency, "JPY");
  });
});

describe("parseLeadInput: name and email", () => {
  const missingName: [string, RawField[]][] = [
    ["no name field", [["email", "ada@example.com"]]],
    ["an empty name", [["name", ""]]],
    ["a blank name", [["name", "   "]]],
    ["a null name", [["name", null]]],
    ["an empty body", []],
  ];
  for (const [title, fields] of missingName) {
    test(`${title} → exactly "Name is required"`, () => assertRejected(fields, "Name is required"));
  }

  test("name is checked before email, whatever the order sent", () => {
    assertRejected(
      [
        ["email", "not-an-email"],
        ["name", " "],
      ],
      "Name is required",
    );
  });

  for (const address of ["not-an-email", "ada@", "@example.com", "ada@@example.com", "ada example@example.com"]) {
    test(`invalid email ${JSON.stringify(address)} is rejected with a text naming it`, () => {
      assertRejected(withName(["email", address]), `Invalid email address: ${address}`);
    });
  }

  test("a valid email is kept trimmed, in the case sent", () => {
    assert.equal(parseLeadInput(withName(["email", "  Ada.Lovelace@Example.COM "])).email, "Ada.Lovelace@Example.COM");
  });
});

describe("parseLeadInput: known field length limits", () => {
  const limits: [field: keyof LeadInput, max: number, valid: (length: number) => string][] = [
    ["name", LIMITS.name, (n) => "a".repeat(n)],
    ["email", LIMITS.email, (n) => `${"a".repeat(64)}@${"b".repeat(n - 64 - 5)}.com`.slice(0, n)],
    ["phone", LIMITS.phone, (n) => "1".repeat(n)],
    ["mobile_no", LIMITS.phone, (n) => "1".repeat(n)],
    ["country_code", LIMITS.countryCode, (n) => "1".repeat(n)],
    ["organization", LIMITS.text, (n) => "o".repeat(n)],
    ["job_title", LIMITS.text, (n) => "j".repeat(n)],
    ["annual_revenue", LIMITS.number, (n) => "9".repeat(n)],
    ["no_of_employees", LIMITS.number, (n) => "9".repeat(n)],
    ["utm_content", LIMITS.text, (n) => "u".repeat(n)],
  ];
  for (const [field, max, make] of limits) {
    test(`${field}: ${max} characters are accepted, ${max + 1} rejected naming the field`, () => {
      const base: RawField[] = field === "name" ? [] : [["name", "Ada"]];
      assert.equal(parseLeadInput([...base, [field, make(max)]])[field], make(max));
      const over = field === "email" ? `${"a".repeat(64)}@${"b".repeat(max - 64 - 4)}.com` : make(max + 1);
      assert.equal(over.length, max + 1);
      assertRejected([...base, [field, over]], `Field "${field}" is too long (at most ${max} characters)`);
    });
  }
});
