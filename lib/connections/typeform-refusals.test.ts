import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload } from "./answers";
import { loose, typeformExample, withAnswers, withResponse } from "./fixtures/typeform-example";
import { parseTypeformDelivery } from "./typeform";

// Bodies that are not Typeform's documented shape (https://www.typeform.com/developers/
// webhooks/example-payload/) are refused with UnknownPayload and a message saying what was
// expected; generated bodies never throw anything else. The example read field by field:
// typeform.test.ts.

function assertUnknown(body: unknown, message: RegExp): void {
  assert.throws(
    () => parseTypeformDelivery(body),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

describe("unknown Typeform shapes are refused, never guessed", () => {
  const one = (answer: unknown) => withAnswers([answer]);
  const cases: [string, unknown, RegExp][] = [
    ["not an object", [1, 2], /JSON object/],
    [
      "a partial response",
      { ...typeformExample(), event_type: "form_response_partial" },
      /event_type "form_response", not "form_response_partial"/,
    ],
    ["no event type", { form_response: {} }, /event_type "form_response", not none/],
    ["no form_response", { event_type: "form_response" }, /form_response object/],
    ["form_response not an object", { event_type: "form_response", form_response: [] }, /form_response object/],
    ["no answers", withResponse((r) => delete r.answers), /form_response\.answers list/],
    ["answers not a list", withResponse((r) => (r.answers = { a: 1 })), /form_response\.answers list/],
    ["an answer that is not an object", one("Laura"), /answer 1 is not an object/],
    ["an answer without a field", one({ type: "text", text: "Laura" }), /answer 1 has no field/],
    ["a field without an id or ref", one({ type: "text", text: "Laura", field: { type: "short_text" } }), /without an id or a ref/],
    ["an answer without a type", one({ text: "Laura", field: { id: "a" } }), /answer 1 has no type/],
    ["a text that is not text", one({ type: "text", text: 3, field: { id: "a" } }), /answer 1 \(text\) has a value of a shape/],
    ["a choice that is not an object", one({ type: "choice", choice: "London", field: { id: "a" } }), /\(choice\)/],
    ["labels that are not texts", one({ type: "choices", choices: { labels: [1] }, field: { id: "a" } }), /\(choices\)/],
    ["a payment that is not an object", one({ type: "payment", payment: "9.00", field: { id: "a" } }), /\(payment\)/],
    ["an object of an unknown type", one({ type: "address", address: { city: "Ghent" }, field: { id: "a" } }), /\(address\)/],
    ["a definition that is not an object", withResponse((r) => (loose(r).definition = "form")), /definition is an object/],
    ["definition fields not a list", withResponse((r) => (r.definition.fields = {})), /definition\.fields list/],
    ["a question that is not an object", withResponse((r) => (r.definition.fields = [null])), /question 1 of the definition/],
    ["hidden not an object", withResponse((r) => (r.hidden = ["utm_source"])), /hidden is an object/],
    ["a hidden value that is not text", withResponse((r) => (r.hidden = { a: { b: 1 } })), /hidden field 1/],
  ];
  for (const [name, body, message] of cases) test(name, () => assertUnknown(body, message));

  test("a type named like Object.prototype's properties finds no inherited value", () => {
    assert.deepEqual(parseTypeformDelivery(one({ type: "constructor", field: { id: "a" } })).answers, []);
    assert.deepEqual(parseTypeformDelivery(one({ type: "__proto__", field: { id: "a" } })).answers, []);
  });
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (body: unknown) => {
    try {
      assert.ok(Array.isArray(parseTypeformDelivery(body).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const mostly = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const id = fc.constantFrom("a", "b", "c", "constructor", "__proto__");
  const answerType = fc.constantFrom(
    "text",
    "email",
    "phone_number",
    "url",
    "number",
    "boolean",
    "date",
    "file_url",
    "choice",
    "choices",
    "payment",
  );
  const fieldType = fc.constantFrom(
    "short_text",
    "email",
    "phone_number",
    "website",
    "multiple_choice",
    "yes_no",
    "payment",
    "calendly",
    "toString",
  );
  /** A value of the shape Typeform documents for each answer type. */
  const documented = (type: string): fc.Arbitrary<unknown> =>
    ({
      number: fc.integer(),
      boolean: fc.boolean(),
      choice: fc.record({ label: fc.string(), other: fc.string() }, { requiredKeys: [] }),
      choices: fc.record({ labels: fc.array(fc.string()), other: fc.string() }, { requiredKeys: [] }),
      payment: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
    })[type] ?? fc.string();
  const question = fc.record(
    {
      id,
      ref: fc.option(id),
      title: fc.string(),
      type: fieldType,
      subfield_key: fc.constantFrom("first_name", "last_name", "company", "hasOwnProperty"),
      properties: fc.record({ fields: fc.array(fc.record({ id, title: fc.string(), subfield_key: fc.string() })) }),
    },
    { requiredKeys: ["id"] },
  );
  const goodAnswer = answerType
    .chain((type) =>
      fc.record({
        type: fc.constant(type),
        value: documented(type),
        field: fc.record({ id, type: fieldType, ref: id }, { requiredKeys: ["id"] }),
      }),
    )
    .map(({ type, value, field }) => ({ type, [type]: value, field }));
  const hidden = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null)));

  test("any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 500 });
  });

  test("Typeform-shaped bodies with documented answers of any values never throw at all", () => {
    const body = fc.record({
      event_type: fc.constant("form_response"),
      form_response: fc.record({
        token: fc.string(),
        hidden,
        definition: fc.record({ title: fc.string(), fields: fc.array(question, { maxLength: 6 }) }),
        answers: fc.array(goodAnswer, { maxLength: 8 }),
      }),
    });
    fc.assert(
      fc.property(body, (generated) => {
        const delivery = parseTypeformDelivery(generated);
        assert.ok(delivery.answers.every((answer) => typeof answer.key === "string" && typeof answer.label === "string"));
      }),
      { numRuns: 500 },
    );
  });

  test("Typeform-shaped bodies with any answers: a Delivery or UnknownPayload", () => {
    // Mostly well-formed, sometimes not: every branch of the reader is reached.
    const answer = fc.record(
      {
        type: mostly(fc.oneof(answerType, fc.constantFrom("constructor", "field", "address"))),
        field: mostly(fc.record({ id, ref: id, type: fieldType }, { requiredKeys: [] })),
        text: fc.jsonValue(),
        choice: fc.jsonValue(),
        choices: fc.jsonValue(),
        payment: fc.jsonValue(),
        address: fc.jsonValue(),
      },
      { requiredKeys: ["type", "field"] },
    );
    const body = fc.record({
      event_type: mostly(fc.constant("form_response")),
      form_response: mostly(
        fc.record(
          {
            hidden: mostly(hidden),
            definition: mostly(fc.record({ fields: mostly(fc.array(mostly(question), { maxLength: 4 })) })),
            answers: mostly(fc.array(mostly(answer), { maxLength: 6 })),
          },
          { requiredKeys: ["answers"] },
        ),
      ),
    });
    fc.assert(fc.property(body, check), { numRuns: 1000 });
  });
});
