import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { webflowExample, withPayload } from "./fixtures/webflow-example";
import { mapAnswers } from "./map-answers";
import { parseWebflowDelivery } from "./webflow";

// The fixture is Webflow's documented example (https://developers.webflow.com/data/docs/
// working-with-webhooks): see fixtures/webflow-example.ts for its source.

const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);

describe("Webflow's documented example", () => {
  const delivery = parseWebflowDelivery(webflowExample());

  test("the submission id is payload.id; the form's name, ids and time are metadata", () => {
    assert.equal(delivery.submissionId, "6321ca84df3949bfc6752327");
    assert.deepEqual(delivery.meta, {
      formName: "Contact Us",
      siteId: "65427cf400e02b306eaa049c",
      formId: "65429eadebe8a9f3a30f62d0",
      formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177",
      submittedAt: "2022-09-14T12:35:16.117Z",
    });
  });

  test("every field under its name as sent, typed by the schema (FormTextInput: text), field by field", () => {
    assert.deepEqual(triples(delivery), [
      ["First Name", "text", "Zaphod"],
      ["Last Name", "text", "Beeblebrox"],
      ["email", "text", "zaphod@heartofgold.ai"],
      ["Phone Number", "text", 15550000000],
    ]);
    assert.deepEqual(
      delivery.answers.map((answer) => answer.key),
      ["First Name", "Last Name", "email", "Phone Number"],
    );
  });

  test("mapped by the labels: first and last name make the name; the email and the phone are the lead's", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Zaphod Beeblebrox"],
      ["email", "zaphod@heartofgold.ai"],
      // The phone Webflow sends as a number is the lead's phone as text.
      ["phone", "15550000000"],
    ]);
  });

  test("pageId and publishedPath, when a delivery carries them, are metadata too", () => {
    const more = parseWebflowDelivery(
      withPayload((payload) => Object.assign(payload, { pageId: "68f77ea29d6b098f6bcad76f", publishedPath: "/contact" })),
    );
    assert.equal(more.meta.pageId, "68f77ea29d6b098f6bcad76f");
    assert.equal(more.meta.publishedPath, "/contact");
  });
});

describe("Webflow fields", () => {
  test("schema types: textarea text, checkbox and radio choice, file; no schema or an unlisted type: untyped", () => {
    const delivery = parseWebflowDelivery(
      withPayload((payload) => {
        payload.data = { Message: "Hi", Newsletter: true, Plan: "Pro", CV: "https://example.com/cv.pdf", Other: "x", Loose: "y" };
        payload.schema = [
          { fieldName: "Message", fieldType: "FormTextarea" },
          { fieldName: "Newsletter", fieldType: "FormCheckboxInput" },
          { fieldName: "Plan", fieldType: "FormRadioInput" },
          { fieldName: "CV", fieldType: "FormFileUploadInput" },
          { fieldName: "Other", fieldType: "FormEmailInput" },
        ];
      }),
    );
    assert.deepEqual(triples(delivery), [
      ["Message", "text", "Hi"],
      ["Newsletter", "choice", true],
      ["Plan", "choice", "Pro"],
      ["CV", "file", "https://example.com/cv.pdf"],
      ["Other", undefined, "x"],
      ["Loose", undefined, "y"],
    ]);
    const bare = parseWebflowDelivery(withPayload((payload) => delete (payload as Record<string, unknown>).schema));
    assert.ok(bare.answers.every((answer) => answer.type === undefined));
    assert.equal(mapAnswers(bare.answers).fields[0]![1], "Zaphod Beeblebrox");
  });

  test("empty values are no answer; a list is kept as texts; no id: no submission id", () => {
    const delivery = parseWebflowDelivery(
      withPayload((payload) => {
        payload.data = { a: "", b: null, c: [], d: ["x", 2, ""], constructor: "kept" };
        delete payload.id;
      }),
    );
    assert.deepEqual(triples(delivery), [
      ["d", undefined, ["x", "2"]],
      ["constructor", undefined, "kept"],
    ]);
    assert.equal(delivery.submissionId, null);
  });
});

function assertUnknown(body: unknown, message: RegExp): void {
  assert.throws(
    () => parseWebflowDelivery(body),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

describe("unknown Webflow shapes are refused, never guessed", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", [1], /JSON object/],
    ["another trigger type", { ...webflowExample(), triggerType: "site_publish" }, /"form_submission", not "site_publish"/],
    ["no trigger type", { payload: {} }, /"form_submission", not none/],
    ["a v1 body (no triggerType, data at the top)", { name: "Form", site: "s", data: { a: "b" }, _id: "x" }, /not none/],
    ["no payload", { triggerType: "form_submission" }, /payload object/],
    ["a payload that is a list", { triggerType: "form_submission", payload: [] }, /payload object/],
    ["no data", withPayload((p) => delete (p as Record<string, unknown>).data), /payload\.data object/],
    ["data that is a list", withPayload((p) => ((p as Record<string, unknown>).data = ["a"])), /payload\.data object/],
    ["a value that is an object", withPayload((p) => (p.data = { a: { b: 1 } })), /field 1 has a value/],
    ["a list of objects", withPayload((p) => (p.data = { a: "x", b: [{}] })), /field 2 has a value/],
    ["a schema that is not a list", withPayload((p) => ((p as Record<string, unknown>).schema = {})), /schema is a list/],
    ["a schema field that is not an object", withPayload((p) => (p.schema = ["email"])), /schema field 1/],
  ];
  for (const [name, body, message] of cases) test(name, () => assertUnknown(body, message));
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (body: unknown) => {
    try {
      assert.ok(Array.isArray(parseWebflowDelivery(body).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const mostly = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const name = fc.oneof(fc.string(), fc.constantFrom("email", "constructor", "__proto__", "toString"));
  const fieldType = fc.constantFrom(
    "FormTextInput",
    "FormTextarea",
    "FormCheckboxInput",
    "FormRadioInput",
    "FormFileUploadInput",
    "hasOwnProperty",
  );
  const field = fc.record({ fieldName: name, fieldType, fieldElementId: fc.string() }, { requiredKeys: [] });
  const schema = fc.array(field, { maxLength: 5 });
  const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));

  test("any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 500 });
  });

  test("Webflow-shaped bodies with documented values never throw at all", () => {
    const body = fc.record({
      triggerType: fc.constant("form_submission"),
      payload: fc.record(
        {
          name: fc.string(),
          id: fc.string(),
          data: fc.dictionary(name, fc.oneof(scalar, fc.array(fc.oneof(fc.string(), fc.integer())))),
          schema,
        },
        { requiredKeys: ["data"] },
      ),
    });
    fc.assert(
      fc.property(body, (generated) => {
        const delivery = parseWebflowDelivery(generated);
        assert.ok(delivery.answers.every((answer) => typeof answer.key === "string" && answer.key === answer.label));
      }),
      { numRuns: 500 },
    );
  });

  test("Webflow-shaped bodies with any values: a Delivery or UnknownPayload", () => {
    const body = fc.record({
      triggerType: mostly(fc.constant("form_submission")),
      payload: mostly(
        fc.record(
          {
            data: mostly(fc.dictionary(name, fc.jsonValue())),
            schema: mostly(fc.array(mostly(field), { maxLength: 5 })),
            id: fc.jsonValue(),
            name: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      ),
    });
    fc.assert(fc.property(body, check), { numRuns: 1000 });
  });
});
