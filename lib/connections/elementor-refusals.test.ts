import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { RawField } from "../http/read-body";
import { UnknownPayload } from "./answers";
import { parseElementorBody, parseElementorFields } from "./elementor";
import { ELEMENTOR_ADVANCED_EXAMPLE } from "./fixtures/elementor-example";
import { formBody, phpHttpBuildQuery } from "./fixtures/php-form-body";

// Bodies that are not what Elementor Pro's Webhook action sends (its source:
// modules/forms/actions/webhook.php) are refused with UnknownPayload and a message saying
// what was expected; generated bodies never throw anything else, and generated forms read
// back as Elementor wrote them. The examples read field by field: elementor.test.ts.

function assertUnknown(fields: RawField[], message: RegExp): void {
  assert.throws(
    () => parseElementorFields(fields),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

const FORM: RawField = ["form[id]", "abc1234"];
const read = async (text: string | Buffer) => parseElementorBody(formBody(text));

describe("unknown Elementor Pro shapes are refused, never guessed", () => {
  const cases: [string, RawField[], RegExp][] = [
    ["nothing at all", [], /names its form: form_id/],
    ["labels without form_id", [["Name", "Ada"]], /names its form: form_id/],
    [
      "an empty form_id",
      [
        ["Name", "Ada"],
        ["form_id", ""],
      ],
      /names its form: form_id/,
    ],
    ["Advanced Data without form[id]", [["fields[name][value]", "Ada"]], /names its form: form\[id\]/],
    [
      "Advanced Data with a label beside it",
      [FORM, ["Name", "Ada"]],
      /form\[…\], fields\[<id>\]\[…\] and meta\[<key>\]\[…\] only, not "Name"/,
    ],
    ["form[…] other than id and name", [FORM, ["form[post_id]", "12"]], /only, not "form\[post_id\]"/],
    ["a field without a property", [FORM, ["fields[name]", "Ada"]], /only, not "fields\[name\]"/],
    ["a field without an id", [FORM, ["fields[][value]", "Ada"]], /only, not "fields\[\]\[value\]"/],
    ["a meta row without title or value", [FORM, ["meta[date]", "today"]], /only, not "meta\[date\]"/],
    ["a meta row's other part", [FORM, ["meta[date][label]", "Date"]], /only, not "meta\[date\]\[label\]"/],
    ["a value that is a list", [FORM, ["fields[name][value][0]", "Ada"]], /field's value is one value/],
    ["a raw value keyed by a name", [FORM, ["fields[name][raw_value][first]", "Ada"]], /field's raw_value is one value/],
    ["a raw value nested deeper", [FORM, ["fields[name][raw_value][0][1]", "Ada"]], /field's raw_value is one value/],
    ["a file", [FORM, ["fields[cv][value]", new File(["x"], "cv.pdf")]], /text values, not files/],
  ];
  for (const [name, fields, message] of cases) test(name, () => assertUnknown(fields, message));

  test("properties Elementor sends but no answer needs are left as they are, at any depth", () => {
    const delivery = parseElementorFields([FORM, ["fields[cv][file_types]", "pdf"], ["fields[cv][extra][a][b]", "x"]]);
    assert.deepEqual(delivery.answers, []);
  });

  test("a JSON body is not Elementor's", async () => {
    await assert.rejects(
      parseElementorBody(formBody('{"form_id":"abc1234"}', "application/json")),
      (error: unknown) =>
        error instanceof UnknownPayload && /form body \(application\/x-www-form-urlencoded\), not JSON/.test(error.message),
    );
  });

  test("an empty form body", async () => {
    await assert.rejects(parseElementorBody(formBody("")), UnknownPayload);
  });
});

describe("any form body gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (fields: RawField[]) => {
    try {
      assert.ok(Array.isArray(parseElementorFields(fields).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const segment = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom("id", "name", "type", "title", "value", "raw_value", "required", "0", "date", "__proto__", "constructor"),
  );
  const bracketed = fc
    .tuple(fc.constantFrom("form", "fields", "meta", "x", ""), fc.array(segment, { maxLength: 4 }))
    .map(([head, parts]) => `${head}${parts.map((part) => `[${part}]`).join("")}`);
  const name = fc.oneof(bracketed, fc.string(), fc.constantFrom("form_id", "form_name", "Date", "Remote IP", "Powered by"));
  const value = fc.oneof({ arbitrary: fc.string(), weight: 19 }, { arbitrary: fc.constant(new Blob(["x"])), weight: 1 });

  test("any names and values, bracketed or not", () => {
    fc.assert(fc.property(fc.array(fc.tuple(name, value), { maxLength: 16 }), check), { numRuns: 1000 });
  });

  test("the example with any one name or value changed", () => {
    const example = [...new URLSearchParams(ELEMENTOR_ADVANCED_EXAMPLE.toString("utf8"))] as RawField[];
    const change = fc.record({ at: fc.nat({ max: example.length - 1 }), name, value: fc.string(), renameIt: fc.boolean() });
    fc.assert(
      fc.property(change, ({ at, name: newName, value: newValue, renameIt }) => {
        const fields = example.map((field, index): RawField =>
          index === at ? (renameIt ? [newName, field[1]] : [field[0], newValue]) : field,
        );
        check(fields);
      }),
      { numRuns: 500 },
    );
  });
});

describe("generated forms read back as Elementor wrote them (fast-check)", () => {
  const id = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);
  const text = fc.string({ maxLength: 20 });
  const type = fc.constantFrom("text", "email", "tel", "url", "textarea", "select", "radio", "checkbox", "number", "hidden", "date");
  const field = fc.record({ type, title: text, value: text, choices: fc.array(text, { maxLength: 3 }) });

  test("Advanced Data on: every field with a value is an answer keyed by its id, in order, with its title or id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(id, field), { selector: ([key]) => key, maxLength: 6 }), async (generated) => {
        const fields = Object.fromEntries(
          generated.map(([key, f]) => [
            key,
            {
              id: key,
              type: f.type,
              title: f.title,
              value: f.value,
              raw_value: f.type === "checkbox" ? f.choices : f.value,
              required: false,
            },
          ]),
        );
        // Object.fromEntries puts integer-like ids first, as PHP would not: compare by the order written.
        const written = Object.keys(fields);
        const delivery = await read(phpHttpBuildQuery({ form: { id: "abc1234", name: "F" }, fields }));
        const expected = written.filter((key) => {
          const f = fields[key]!;
          return Array.isArray(f.raw_value) && f.raw_value.some((choice) => choice !== "") ? true : f.value !== "";
        });
        assert.deepEqual(
          delivery.answers.map((answer) => answer.key),
          expected,
        );
        for (const answer of delivery.answers) assert.equal(answer.label, fields[answer.key]!.title || answer.key);
      }),
      { numRuns: 300 },
    );
  });

  test("Advanced Data off: every non-empty label is an answer, the rows and the form metadata", async () => {
    // A label beginning "form[", "fields[" or "meta[" would read as Advanced Data: no form has one.
    const label = text.filter((value) => !/^(form|fields|meta)\[/.test(value));
    const labels = fc.uniqueArray(fc.tuple(label, text), { selector: ([name]) => name, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(labels, async (generated) => {
        // Metadata rows' titles are answers too (typed meta); form_id and form_name are the form's.
        const kept = generated.filter(([label]) => label !== "form_id" && label !== "form_name");
        const delivery = await read(phpHttpBuildQuery([...kept, ["form_id", "abc1234"]]));
        assert.deepEqual(
          delivery.answers.map((answer) => [answer.label, answer.value]),
          kept.filter(([label, value]) => label !== "" && value !== ""),
        );
        assert.equal(delivery.meta.form_id, "abc1234");
      }),
      { numRuns: 300 },
    );
  });
});
