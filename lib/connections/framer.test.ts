import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { FRAMER_SUBMISSION_ID, framerExample } from "./fixtures/framer-example";
import { parseFramerDelivery } from "./framer";
import { mapAnswers } from "./map-answers";

// The fixture follows Framer's page (https://www.framer.com/help/articles/framer-form-webhook-setup/):
// a flat object of the form's fields by their names; see fixtures/framer-example.ts.

const pairs = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);

describe("Framer's example body", () => {
  const delivery = parseFramerDelivery(framerExample(), FRAMER_SUBMISSION_ID);

  test("the submission id is the Framer-Webhook-Submission-Id header; the body has no metadata", () => {
    assert.equal(delivery.submissionId, "0fbbb90e-564b-4870-ac8b-78f9bc4e44a6");
    assert.deepEqual(delivery.meta, {});
  });

  test("every field under its name as sent, untyped (Framer says no type), field by field", () => {
    assert.deepEqual(pairs(delivery), [
      ["Name", undefined, "Ada Lovelace"],
      ["Email", undefined, "ada@example.com"],
      ["Phone", undefined, "+32 491 22 33 44"],
      ["Company", undefined, "Analytical Engines"],
      ["Budget", undefined, "€5k–€10k"],
      ["Message", undefined, "We would like a new website for the spring launch."],
    ]);
    assert.ok(delivery.answers.every((answer) => answer.key === answer.label));
  });

  test("mapped by the names: name, email, phone and organization; the rest extra fields under their names", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["organization", "Analytical Engines"],
      ["Budget", "€5k–€10k"],
      ["Message", "We would like a new website for the spring launch."],
    ]);
  });
});

describe("Framer values and the submission id", () => {
  test("empty values are no answer; true/false, numbers and lists are kept; a field named constructor is a field", () => {
    // Not Framer's documented values (the page names none but text): what a body may hold.
    const delivery = parseFramerDelivery(
      { Name: "Ada", Empty: "", Null: null, None: [], Newsletter: true, Consent: "on", Seats: 3, Topics: ["A", "", 2], constructor: "x" },
      FRAMER_SUBMISSION_ID,
    );
    assert.deepEqual(pairs(delivery), [
      ["Name", undefined, "Ada"],
      ["Newsletter", undefined, true],
      ["Consent", undefined, "on"],
      ["Seats", undefined, 3],
      ["Topics", undefined, ["A", "2"]],
      ["constructor", undefined, "x"],
    ]);
  });

  test("no header, an empty one or spaces: no submission id (the intake uses the body's digest); spaces around an id are dropped", () => {
    for (const header of [null, "", "   "]) assert.equal(parseFramerDelivery(framerExample(), header).submissionId, null);
    assert.equal(parseFramerDelivery(framerExample(), ` ${FRAMER_SUBMISSION_ID} `).submissionId, FRAMER_SUBMISSION_ID);
  });

  test("a form without a name answer needs mapping", () => {
    const { Name: _name, ...rest } = framerExample();
    assert.match(mapAnswers(parseFramerDelivery(rest, FRAMER_SUBMISSION_ID).answers).needsMapping ?? "", /No answer gives the lead's name/);
  });
});

describe("unknown Framer shapes are refused, never guessed", () => {
  const cases: [string, unknown, RegExp][] = [
    ["a list", [{ Name: "Ada" }], /JSON object of the form's fields/],
    ["a text", "Name=Ada", /JSON object/],
    ["null", null, /JSON object/],
    ["a nested object", { Name: "Ada", Address: { city: "Ghent" } }, /field 2 has a value that is not text/],
    ["a list of objects", { Files: [{ url: "https://example.com/a.pdf" }] }, /field 1/],
    ["a list of lists", { Grid: [["a"]] }, /field 1/],
  ];
  for (const [name, body, message] of cases) {
    test(name, () =>
      assert.throws(
        () => parseFramerDelivery(body, FRAMER_SUBMISSION_ID),
        (error: unknown) => error instanceof UnknownPayload && message.test(error.message) && !error.message.includes("Ghent"),
      ),
    );
  }
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const header = fc.option(fc.string(), { nil: null });

  test("any JSON value and header", () => {
    fc.assert(
      fc.property(fc.jsonValue(), header, (body, id) => {
        try {
          assert.ok(Array.isArray(parseFramerDelivery(body, id).answers));
        } catch (error) {
          if (!(error instanceof UnknownPayload)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("flat objects of form values never throw; every answer is a sent field, none empty", () => {
    const name = fc.oneof(fc.string(), fc.constantFrom("Email", "constructor", "__proto__", "toString"));
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const body = fc.dictionary(name, fc.oneof(scalar, fc.array(fc.oneof(fc.string(), fc.integer()))));
    fc.assert(
      fc.property(body, header, (generated, id) => {
        const delivery = parseFramerDelivery(generated, id);
        for (const answer of delivery.answers) {
          assert.ok(Object.hasOwn(generated, answer.key));
          assert.notEqual(answer.value, "");
          assert.ok(!Array.isArray(answer.value) || answer.value.length > 0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
