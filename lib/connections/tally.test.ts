import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { tallyExample } from "./fixtures/tally-example";
import { parseTallyDelivery } from "./tally";

// The fixture is Tally's documented example (https://tally.so/help/webhooks, "Example
// webhook event"): see fixtures/tally-example.ts for its source and its one change.

/** The example with its fields replaced. */
const withFields = (fields: unknown): unknown => {
  const body = tallyExample();
  return { ...body, data: { ...(body.data as object), fields } };
};

function assertUnknown(body: unknown, message: RegExp): void {
  assert.throws(
    () => parseTallyDelivery(body),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

describe("Tally's documented example", () => {
  const delivery = parseTallyDelivery(tallyExample());

  test("the submission id is the responseId; the ids and times are metadata", () => {
    assert.equal(delivery.submissionId, "2wgx4n");
    assert.deepEqual(delivery.meta, {
      eventId: "a4cb511e-d513-4fa5-baee-b815d718dfd1",
      formId: "VwbNEw",
      formName: "Webhook payload",
      respondentId: "dwQKYm",
      submittedAt: "2023-06-28T15:00:21.000Z",
    });
  });

  test("every question is one answer, field by field: choices as their option texts, files by URL, the matrix by row", () => {
    const byLabel = (answers: Delivery["answers"]) => answers.map(({ label, type, value }) => [label, type, value]);
    assert.deepEqual(byLabel(delivery.answers), [
      ["utm_campaign", "hidden", "newsletter"],
      ["Score", "text", 20],
      ["Type", "text", "Hard"],
      ["Text", "text", "Hello"],
      ["Number", "number", 10],
      ["Email", "email", "alice@example.com"],
      ["Phone number", "phone", "+32491223344"],
      ["Website", "url", "example.com"],
      ["Date", "date", "2023-06-28"],
      ["Time", "date", "12:00"],
      ["Long text", "text", "Hello world"],
      ["Multiple choice", "choice", "In progress"],
      ["Checkboxes", "choice", ["Swimming", "Skiing"]],
      ["Dropdown", "choice", "Hard"],
      ["Multi-select", "choice", ["Surf", "Golf"]],
      [
        "File upload",
        "file",
        ["https://storage.googleapis.com/tally-response-assets-dev/vBXMXN/34fd1ee5-4ead-4929-9a4a-918ac9f0b416/Tally_Icon.png"],
      ],
      ["Payment (price)", "payment", 9],
      ["Payment (currency)", "payment", "USD"],
      ["Payment (name)", "payment", "Alice Smith"],
      ["Payment (email)", "payment", "alice@example.com"],
      ["Payment (link)", "payment", "https://dashboard.stripe.com/payments/[PAYMENT_ID]"],
      ["Rating", "number", 4],
      ["Ranking", "choice", ["Pear", "Apple", "Banana"]],
      ["Linear scale", "number", 7],
      [
        "Signature",
        "file",
        ["https://storage.googleapis.com/tally-response-assets-dev/vBXMXN/signatures/ca8f2e11-f99a-4042-b872-0888811b8118.png"],
      ],
      ["Matrix", "text", ["Quality: Satisfied", "Speed: Neutral"]],
    ]);
  });

  test("the per-option true/false entries of the checkboxes are left out; the answers keep Tally's keys", () => {
    const keys = delivery.answers.map((answer) => answer.key);
    assert.ok(!keys.some((key) => key.startsWith("question_wQ1K7w_")));
    assert.ok(keys.includes("question_wQ1K7w"));
    assert.equal(keys.length, 26);
  });
});

describe("Tally answers", () => {
  test("an unanswered question (null) is no answer; a choice id that is no option is kept as sent", () => {
    const delivery = parseTallyDelivery(
      withFields([
        { key: "q1", label: "Company", type: "INPUT_TEXT", value: null },
        { key: "q2", label: "Plan", type: "MULTIPLE_CHOICE", value: ["a", "Other plan"], options: [{ id: "a", text: "Starter" }] },
        { key: "q3", label: "Plan (legacy)", type: "DROPDOWN", value: "a", options: [{ id: "a", text: "Starter" }] },
        { key: "q4", label: "", type: "INPUT_TEXT", value: "untitled" },
      ]),
    );
    assert.deepEqual(
      delivery.answers.map(({ key, label, value }) => [key, label, value]),
      [
        ["q2", "Plan", ["Starter", "Other plan"]],
        ["q3", "Plan (legacy)", "Starter"],
        ["q4", "q4", "untitled"],
      ],
    );
  });

  test("a body without responseId falls back to submissionId, then to none", () => {
    const body = tallyExample() as { data: Record<string, unknown> };
    delete body.data.responseId;
    assert.equal(parseTallyDelivery(body).submissionId, "2wgx4n");
    delete body.data.submissionId;
    assert.equal(parseTallyDelivery(body).submissionId, null);
  });
});

describe("unknown Tally shapes are refused, never guessed", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", [1, 2], /JSON object/],
    ["another event type", { ...tallyExample(), eventType: "FORM_UPDATED" }, /eventType "FORM_RESPONSE", not "FORM_UPDATED"/],
    ["no event type", { data: { fields: [] } }, /eventType "FORM_RESPONSE", not none/],
    ["no data", { eventType: "FORM_RESPONSE" }, /data object/],
    ["data without fields", { eventType: "FORM_RESPONSE", data: { responseId: "x" } }, /data\.fields list/],
    ["fields not a list", withFields({ q: "a" }), /data\.fields list/],
    ["a field that is not an object", withFields(["Hello"]), /field 1 is not an object/],
    ["a field without a key", withFields([{ label: "Name", type: "INPUT_TEXT", value: "Ada" }]), /field 1 has no key/],
    ["a field without a type", withFields([{ key: "q", label: "Name", value: "Ada" }]), /field 1 has no type/],
    ["a label that is not text", withFields([{ key: "q", label: 3, type: "INPUT_TEXT", value: "Ada" }]), /label that is not text/],
    ["a choice without options", withFields([{ key: "q", label: "Plan", type: "CHECKBOXES", value: ["a"] }]), /no list of options/],
    [
      "an option without text",
      withFields([{ key: "q", label: "Plan", type: "DROPDOWN", value: ["a"], options: [{ id: "a" }] }]),
      /option without/,
    ],
    [
      "a choice value of objects",
      withFields([{ key: "q", label: "Plan", type: "DROPDOWN", value: [{}], options: [] }]),
      /shape Tally does not document/,
    ],
    [
      "a file without a URL",
      withFields([{ key: "q", label: "CV", type: "FILE_UPLOAD", value: [{ name: "cv.pdf" }] }]),
      /field 1 \(FILE_UPLOAD\)/,
    ],
    [
      "an object value of an unknown type",
      withFields([{ key: "q", label: "Where", type: "ADDRESS", value: { city: "Ghent" } }]),
      /ADDRESS/,
    ],
  ];
  for (const [name, body, message] of cases) test(name, () => assertUnknown(body, message));
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (body: unknown) => {
    try {
      const delivery = parseTallyDelivery(body);
      assert.ok(Array.isArray(delivery.answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };

  test("any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 500 });
  });

  test("Tally-shaped bodies with any fields", () => {
    // Mostly well-formed, sometimes not: every branch of the reader is reached.
    const mostly = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
    const id = fc.constantFrom("a", "b", "c");
    const option = fc.record({ id, text: fc.string() });
    const type = fc.constantFrom(
      "INPUT_TEXT",
      "INPUT_EMAIL",
      "CHECKBOXES",
      "MULTIPLE_CHOICE",
      "DROPDOWN",
      "FILE_UPLOAD",
      "MATRIX",
      "PAYMENT",
      "NEW_TYPE",
      // Names of Object.prototype: a type is looked up, never inherited.
      "constructor",
      "__proto__",
    );
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(id),
      fc.array(fc.record({ url: fc.string() })),
      fc.dictionary(id, fc.array(id)),
      fc.jsonValue(),
    );
    const field = fc.record(
      {
        key: mostly(fc.string({ minLength: 1, maxLength: 8 })),
        label: mostly(fc.oneof(fc.string(), fc.constant(null))),
        type: mostly(type),
        value,
        options: mostly(fc.array(option)),
        rows: mostly(fc.array(option)),
        columns: mostly(fc.array(option)),
      },
      { requiredKeys: ["key", "type", "value"] },
    );
    const body = fc.record({
      eventType: mostly(fc.constant("FORM_RESPONSE")),
      data: mostly(
        fc.record({ responseId: fc.jsonValue(), fields: mostly(fc.array(mostly(field), { maxLength: 6 })) }, { requiredKeys: ["fields"] }),
      ),
    });
    fc.assert(fc.property(body, check), { numRuns: 1000 });
  });
});
