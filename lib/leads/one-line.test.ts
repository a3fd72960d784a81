import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { KNOWN_FIELDS } from "./lead-input-schema";
import { oneLine } from "./one-line";
import { parseLeadInput, type LeadInput } from "./parse-lead-input";

// Issue 27, finding 4: a posted organization "ACME\n\nOpen it: https://evil.example/…" put a
// fake link line into new-lead emails. Every known field is one line at intake; extra
// fields keep their line breaks.

// Every character the rule covers, except U+0000 (a null byte is refused: parse-lead-input-refused-values.test.ts).
const CONTROLS = [
  ...Array.from({ length: 0x1f }, (_, i) => String.fromCharCode(i + 1)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  "\u2028",
  "\u2029",
];
const BREAK_OR_CONTROL = new RegExp(`[\\u0000${CONTROLS.join("")}]`);
const BREAKS_OR_CONTROLS = new RegExp(BREAK_OR_CONTROL, "g");

// The fields a valid value of any text passes through unchanged but for the rule: the
// email must stay an address, the numbers short.
const TEXT_FIELDS = [...KNOWN_FIELDS].filter((field) => field !== "email");

const value = (input: LeadInput, field: string) => (input as Record<string, unknown>)[field];

describe("known lead fields are one line", () => {
  test("the review's organization keeps its words on one line", () => {
    const input = parseLeadInput([
      ["name", "Eve\r\nAdmin"],
      ["organization", "ACME\n\nOpen it: https://evil.example/x\n\nYour session expired, sign in again at the link above."],
    ]);
    assert.equal(input.name, "Eve Admin");
    assert.equal(input.organization, "ACME Open it: https://evil.example/x Your session expired, sign in again at the link above.");
  });

  test("every control character and line separator, in every known text field, becomes a space", () => {
    for (const field of TEXT_FIELDS) {
      for (const control of CONTROLS) {
        const fields: [string, string][] = [["name", "Ada"]];
        if (field === "name") fields.length = 0;
        fields.push([field, `12${control}34`]);
        const parsed = value(parseLeadInput(fields), field);
        assert.equal(parsed, "12 34", `${field} with U+${control.charCodeAt(0).toString(16).padStart(4, "0")}`);
      }
    }
  });

  test("generated values: no known field keeps a break or control; the words stay in order; extra fields are kept as sent", () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...CONTROLS));
    const text = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.constantFrom(...TEXT_FIELDS), text, text, (field, sent, message) => {
        fc.pre(!sent.includes("\u0000") && !message.includes("\u0000") && oneLine(sent).trim().length <= 60);
        fc.pre(oneLine(sent).trim() !== "" && message.trim() !== "");
        const fields: [string, string][] = field === "name" ? [] : [["name", "Ada"]];
        fields.push([field, sent], ["message", message]);
        const input = parseLeadInput(fields);
        const kept = value(input, field);
        assert.equal(typeof kept, "string");
        assert.ok(!BREAK_OR_CONTROL.test(kept as string), JSON.stringify(kept));
        assert.equal(kept, oneLine(sent).trim());
        // Nothing but the breaks and controls changed: the rest of the text is as sent.
        assert.equal((kept as string).replace(/ /g, ""), sent.replace(BREAKS_OR_CONTROLS, "").replace(/ /g, "").trim());
        assert.equal(input.extraFields.message, message);
      }),
      { numRuns: 500 },
    );
  });
});
