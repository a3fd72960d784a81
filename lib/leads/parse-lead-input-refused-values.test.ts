import { describe, test } from "node:test";
import type { RawField } from "../http/read-body";
import { assertRejected, withName } from "./parse-lead-input.fixtures";

// parseLeadInput (lib/leads/parse-lead-input.ts) refuses with a 422 naming the field what no
// field can hold: objects, lists and files in a known field, nested values in an extra one, a
// known field sent twice or as name[], a null byte, and field names that are empty or hold
// control characters.

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
