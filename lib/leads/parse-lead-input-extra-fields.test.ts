import assert from "node:assert/strict";
import { ATTRIBUTION_FIELD_NAMES } from "../attribution/attribution-fields";
import { describe, test } from "node:test";
import { LIMITS } from "./lead-input-schema";
import type { RawField } from "../http/read-body";
import { parseLeadInput } from "./parse-lead-input";
import { assertRejected, withName } from "./parse-lead-input.fixtures";

// parseLeadInput (lib/leads/parse-lead-input.ts) on extra fields (spec 2.2): kept as sent,
// names case-sensitive, __proto__ and constructor as plain data, repeated fields and JSON
// arrays as lists, files named but not stored, and the limits on their number, their names,
// their values and a list's length.

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

  test("the attribution fields do not count towards the limit: a long form keeps its lead with the script's fields added", () => {
    const attribution = ATTRIBUTION_FIELD_NAMES.map((name): RawField => [name, "https://acme.example/"]);
    const input = parseLeadInput(withName(...extras(LIMITS.extraFieldCount), ...attribution));
    assert.equal(Object.keys(input.extraFields).length, LIMITS.extraFieldCount + ATTRIBUTION_FIELD_NAMES.length);
    assert.equal(input.extraFields.first_gclid, "https://acme.example/", "kept as sent");
    assertRejected(
      withName(...extras(LIMITS.extraFieldCount + 1), ...attribution),
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
