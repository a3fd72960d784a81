import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../http/api-error";
import { KNOWN_FIELDS, LIMITS } from "./lead-input-schema";
import type { RawField } from "../http/read-body";
import { parseLeadInput, type LeadInput } from "./parse-lead-input";

/** Asserts that parsing fails with a 422 "Validation failed" whose text is exactly `error`. */
function assertRejected(fields: RawField[], error: string | RegExp): void {
  assert.throws(
    () => parseLeadInput(fields),
    (thrown: unknown) => {
      assert.ok(thrown instanceof ApiError, `expected an ApiError, got ${String(thrown)}`);
      assert.equal(thrown.status, 422);
      assert.equal(thrown.category, "Validation failed");
      if (typeof error === "string") assert.equal(thrown.error, error);
      else assert.match(thrown.error, error);
      return true;
    },
  );
}

const withName = (...fields: RawField[]): RawField[] => [["name", "Ada Lovelace"], ...fields];

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

describe("parseLeadInput: values a field cannot hold", () => {
  const nonScalars: [string, unknown, string][] = [
    ["an object", { first: "Ada" }, "an object"],
    ["an array", ["Ada", "Lovelace"], "a list"],
    ["an empty array", [], "a list"],
    ["a file", new File(["x"], "cv.pdf"), "a file"],
    ["a blob", new Blob(["x"]), "a file"],
  ];
  for (const field of ["name", "email", "phone", "annual_revenue"]) {
    for (const [label, value, described] of nonScalars) {
      test(`${label} in the known field ${field} is rejected naming the field`, () => {
        const fields: RawField[] = field === "name" ? [["name", value]] : withName([field, value]);
        assertRejected(fields, `Field "${field}" must be a single text value, not ${described}`);
      });
    }
  }

  test("an object in an extra field is rejected naming the field", () => {
    assertRejected(withName(["my_custom_field", { first: "Ada" }]), 'Field "my_custom_field" must be a single text value, not an object');
    assertRejected(withName(["tags", ["a", { b: 1 }]]), 'Field "tags" must be a single text value, not an object');
    assertRejected(withName(["tags", ["a", ["b"]]]), 'Field "tags" must hold text values, not a nested list');
  });

  test("a known field sent twice is rejected, even when one copy is empty: it is ambiguous", () => {
    assertRejected(withName(["name", "Grace Hopper"]), 'Field "name" was sent more than once');
    assertRejected(withName(["utm_source", "a"], ["utm_source", ""]), 'Field "utm_source" was sent more than once');
    assertRejected(withName(["email", "a@example.com"], ["email[]", "b@example.com"]), 'Field "email" was sent more than once');
  });

  test("a known field sent with the [] suffix is rejected as a list", () => {
    assertRejected(withName(["email[]", "a@example.com"]), 'Field "email" must be a single text value, not a list');
  });

  test("a null byte in a value is rejected naming the field", () => {
    assertRejected([["name", "Ada\u0000Lovelace"]], 'Field "name" contains a null byte');
    assertRejected(withName(["notes", "a\u0000"]), 'Field "notes" contains a null byte');
  });

  for (const [label, name] of [
    ["a null byte", "bad\u0000name"],
    ["a newline", "bad\nname"],
    ["a tab", "bad\tname"],
    ["an escape", "bad\u001bname"],
    ["a DEL", "bad\u007fname"],
  ] as const) {
    test(`a field name containing ${label} is rejected`, () => {
      assertRejected(withName([name, "value"]), `Field name ${JSON.stringify(name)} contains control characters`);
    });
  }

  test("an empty or blank field name is rejected", () => {
    assertRejected(withName(["", "value"]), "Field names must not be empty");
    assertRejected(withName(["  ", "value"]), "Field names must not be empty");
  });
});

describe("parseLeadInput: extra fields (spec 2.2)", () => {
  test("every unknown field is kept as sent, scalars keeping their type", () => {
    const input = parseLeadInput(withName(["favourite_colour", "  teal "], ["visits", 3], ["subscribed", true], ["opted_out", false]));
    assert.deepEqual(input.extraFields, { favourite_colour: "  teal ", visits: 3, subscribed: true, opted_out: false });
  });

  test("field names are case-sensitive: Name and EMAIL are extra fields", () => {
    const input = parseLeadInput(withName(["Name", "x"], ["EMAIL", "not-checked"]));
    assert.deepEqual(input.extraFields, { Name: "x", EMAIL: "not-checked" });
    assert.equal(input.email, undefined);
  });

  test("a posted id, team, creation or lead_id lands only in extraFields", () => {
    const input = parseLeadInput(
      withName(
        ["id", "CRM-LEAD-99999"],
        ["lead_id", "CRM-LEAD-99998"],
        ["team", "other-team"],
        ["teamId", "other-team-id"],
        ["creation", "2000-01-01"],
        ["createdAt", "2000-01-01"],
        ["seq", 99999],
        ["extraFields", "overwrite?"],
      ),
    );
    assert.deepEqual(Object.keys(input).sort(), ["extraFields", "name"]);
    assert.deepEqual(input.extraFields, {
      id: "CRM-LEAD-99999",
      lead_id: "CRM-LEAD-99998",
      team: "other-team",
      teamId: "other-team-id",
      creation: "2000-01-01",
      createdAt: "2000-01-01",
      seq: 99999,
      extraFields: "overwrite?",
    });
  });

  test("__proto__ and constructor are stored as plain data and pollute no prototype", () => {
    const fields = Object.entries(JSON.parse('{"name":"Ada","__proto__":"p","constructor":"c","toString":"t"}'));
    const input = parseLeadInput(fields);
    const extra = input.extraFields;
    assert.deepEqual(Object.keys(extra), ["__proto__", "constructor", "toString"]);
    assert.equal(Object.getOwnPropertyDescriptor(extra, "__proto__")?.value, "p");
    assert.equal(Object.getOwnPropertyDescriptor(extra, "constructor")?.value, "c");
    assert.equal(Object.getPrototypeOf(extra), Object.prototype);
    assert.equal(Object.getPrototypeOf(input), Object.prototype);
    assert.equal(JSON.stringify(extra), '{"__proto__":"p","constructor":"c","toString":"t"}');
    assert.equal(({} as Record<string, unknown>).p, undefined);
    assert.equal(typeof ({} as object).toString, "function");
  });

  test("a __proto__ object is rejected and pollutes nothing", () => {
    const fields = Object.entries(JSON.parse('{"name":"Ada","__proto__":{"polluted":true}}'));
    assertRejected(fields, 'Field "__proto__" must be a single text value, not an object');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  // Issue 11: ordinary HTML forms send checkbox groups as repeated fields; they were refused.
  test("a repeated extra field is a list in the order sent, and so is the name[] form", () => {
    const input = parseLeadInput(
      withName(["interests", "a"], ["other", "x"], ["interests", "b"], ["topics[]", "t1"], ["topics[]", "t2"], ["single[]", "only"]),
    );
    assert.deepEqual(input.extraFields, { interests: ["a", "b"], other: "x", topics: ["t1", "t2"], single: ["only"] });
  });

  test("a JSON array of scalars is a list; empty values in it are dropped; an empty list is no field", () => {
    const input = parseLeadInput(withName(["tags", ["a", 2, true, "", null, "  "]], ["none", []], ["blanks", ["", ""]]));
    assert.deepEqual(input.extraFields, { tags: ["a", 2, true] });
  });

  test("a repeated extra field with an empty copy keeps the others as a list", () => {
    assert.deepEqual(parseLeadInput(withName(["custom", ""], ["custom", "b"])).extraFields, { custom: ["b"] });
  });

  test("a name that is only [] is a field of that name", () => {
    assert.deepEqual(parseLeadInput(withName(["[]", "x"])).extraFields, { "[]": "x" });
  });

  test(`a list of ${LIMITS.extraFieldListItems} values is accepted, one more is rejected naming the field`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i): RawField => ["pick", `v${i}`]);
    assert.equal(
      (parseLeadInput(withName(...many(LIMITS.extraFieldListItems))).extraFields.pick as string[]).length,
      LIMITS.extraFieldListItems,
    );
    assertRejected(
      withName(...many(LIMITS.extraFieldListItems + 1)),
      `Field "pick" has too many values (at most ${LIMITS.extraFieldListItems})`,
    );
  });

  test("each value of a list is held to the value limit", () => {
    assertRejected(
      withName(["notes", ["ok", "v".repeat(LIMITS.extraFieldValue + 1)]]),
      `Field "notes" is too long (at most ${LIMITS.extraFieldValue} characters)`,
    );
  });

  test("an unused file input (no name, no bytes) is no field; an uploaded file is named, its bytes not stored", () => {
    const input = parseLeadInput(
      withName(["attachment", new File([], "")], ["cv", new File(["x".repeat(2048)], "cv.pdf")], ["blob", new Blob(["x"])]),
    );
    assert.deepEqual(input.extraFields, { cv: "[file not stored: cv.pdf, 2 KiB]", blob: "[file not stored: unnamed, 1 bytes]" });
  });

  test("a contact form's message of about 400 words fits", () => {
    const message = "word ".repeat(480).trim();
    assert.ok(message.length > 2_000);
    assert.equal(parseLeadInput(withName(["message", message])).extraFields.message, message);
  });

  const extras = (count: number, value = "v"): RawField[] => Array.from({ length: count }, (_, i): RawField => [`extra_${i}`, value]);

  test(`${LIMITS.extraFieldCount} extra fields are accepted`, () => {
    const input = parseLeadInput(withName(...extras(LIMITS.extraFieldCount)));
    assert.equal(Object.keys(input.extraFields).length, LIMITS.extraFieldCount);
  });

  test(`${LIMITS.extraFieldCount + 1} extra fields are rejected`, () => {
    assertRejected(
      withName(...extras(LIMITS.extraFieldCount + 1)),
      `Too many extra fields: ${LIMITS.extraFieldCount + 1} sent, at most ${LIMITS.extraFieldCount} accepted`,
    );
  });

  test("empty extra fields do not count towards the limit", () => {
    const input = parseLeadInput(
      withName(...extras(LIMITS.extraFieldCount), ...Array.from({ length: 10 }, (_, i): RawField => [`blank_${i}`, ""])),
    );
    assert.equal(Object.keys(input.extraFields).length, LIMITS.extraFieldCount);
  });

  test(`an extra field name of ${LIMITS.extraFieldKey} characters is accepted, one more is rejected naming it`, () => {
    const ok = "k".repeat(LIMITS.extraFieldKey);
    assert.deepEqual(parseLeadInput(withName([ok, "v"])).extraFields, { [ok]: "v" });
    const long = "k".repeat(LIMITS.extraFieldKey + 1);
    assertRejected(withName([long, "v"]), `Field name "${long}" is too long (at most ${LIMITS.extraFieldKey} characters)`);
  });

  test("a very long field name is named in the error, shortened", () => {
    const long = "k".repeat(500);
    assertRejected(withName([long, "v"]), `Field name "${"k".repeat(80)}…" is too long (at most ${LIMITS.extraFieldKey} characters)`);
  });

  test(`an extra value of ${LIMITS.extraFieldValue} characters is accepted, one more is rejected naming the field`, () => {
    const ok = "v".repeat(LIMITS.extraFieldValue);
    assert.equal(parseLeadInput(withName(["notes", ok])).extraFields.notes, ok);
    assertRejected(withName(["notes", `${ok}v`]), `Field "notes" is too long (at most ${LIMITS.extraFieldValue} characters)`);
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
