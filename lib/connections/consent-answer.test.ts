import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { AnswerValue } from "./answers";
import { BUILDER_IDS, type BuilderId } from "./builders";
import { builderPerson, consentAnswerOf, LABEL_MEANS_TICKED } from "./consent-answer";
import { typeformExample } from "./fixtures/typeform-example";
import { tallyExample } from "./fixtures/tally-example";
import { parseTallyDelivery } from "./tally";
import { parseTypeformDelivery } from "./typeform";

// The consent a builder's mapped answer gives (docs/consent.md "Connections"): each builder's
// shapes of a ticked and an unticked box (from its own example payloads where the fixtures
// have one), and the rule itself on generated values.

const answerOf = (answers: { key: string; value: AnswerValue }[], key: string) => answers.find((answer) => answer.key === key)!.value;

describe("each builder's ticked and unticked consent", () => {
  test("Typeform: a legal field accepted is true; a yes/no answered no is false (Typeform's example)", () => {
    const { answers } = parseTypeformDelivery(typeformExample());
    assert.equal(consentAnswerOf("typeform", answerOf(answers, "readable_ref_legal")), "given");
    assert.equal(consentAnswerOf("typeform", answerOf(answers, "readable_ref_yes_no")), "not_given");
  });

  test("Tally: a checkboxes question sends the ticked options' texts (Tally's example)", () => {
    const { answers } = parseTallyDelivery(tallyExample());
    assert.deepEqual(answerOf(answers, "question_wQ1K7w"), ["Swimming", "Skiing"]);
    assert.equal(consentAnswerOf("tally", answerOf(answers, "question_wQ1K7w")), "given");
    assert.equal(consentAnswerOf("tally", []), "not_given");
  });

  const shapes: [BuilderId, AnswerValue, "given" | "not_given"][] = [
    ["jotform", ["I agree to receive emails"], "given"],
    ["jotform", "I agree to receive emails", "not_given"],
    ["webflow", true, "given"],
    ["webflow", "true", "given"],
    ["webflow", false, "not_given"],
    ["framer", "on", "given"],
    ["framer", "off", "not_given"],
    ["wpforms", "I consent to having this website store my submitted information", "given"],
    ["wpforms", ["I agree"], "given"],
    ["gravityforms", "1", "given"],
    ["gravityforms", "I agree to the newsletter", "given"],
    ["gravityforms", "0", "not_given"],
    ["elementor", "on", "given"],
    ["elementor", "I agree", "given"],
    ["elementor", "No", "not_given"],
    ["fillout", true, "given"],
    ["fillout", false, "not_given"],
    ["fillout", ["Yes, send me emails"], "given"],
    ["googleforms", ["I agree"], "given"],
    ["googleforms", "I agree", "not_given"],
    ["generic", true, "given"],
    ["generic", " YES ", "given"],
    ["generic", 1, "given"],
    ["generic", 0, "not_given"],
    ["generic", "maybe", "not_given"],
    ["generic", ["yes", "no"], "not_given"],
  ];
  for (const [builder, value, expected] of shapes)
    test(`${builder}: ${JSON.stringify(value)} is ${expected}`, () => assert.equal(consentAnswerOf(builder, value), expected));
});

describe("the rule on generated answers", () => {
  const YES = ["true", "yes", "1", "on", "checked", "accepted", "agreed", "y"];
  const NO = ["", "false", "no", "0", "off", "unchecked", "n"];
  const builder = fc.constantFrom(...BUILDER_IDS);
  const padded = (words: string[]) =>
    fc
      .tuple(fc.constantFrom(...words), fc.array(fc.boolean(), { maxLength: 10 }), fc.constantFrom("", " ", "\t", "  "))
      .map(([word, upper, pad]) => pad + [...word].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join("") + pad);
  const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), padded(YES), padded(NO));
  const value: fc.Arbitrary<AnswerValue> = fc.oneof(
    text,
    fc.boolean(),
    fc.oneof(fc.integer(), fc.double()),
    fc.array(text, { maxLength: 5 }),
  );
  const said = (word: string) => word.trim().toLowerCase();

  test("every answer is given or not given, never anything else, never a throw", () => {
    fc.assert(
      fc.property(builder, value, (id, answer) => ["given", "not_given"].includes(consentAnswerOf(id, answer))),
      { numRuns: 2_000 },
    );
  });

  test("true and 1 give consent; false and every other number do not", () => {
    fc.assert(
      fc.property(builder, fc.oneof(fc.boolean(), fc.integer(), fc.double()), (id, answer) => {
        assert.equal(consentAnswerOf(id, answer), answer === true || answer === 1 ? "given" : "not_given");
      }),
    );
  });

  test("a text gives consent when it says yes (any case, spaces around) or, for a builder that sends a box's label, is not a no", () => {
    fc.assert(
      fc.property(builder, text, (id, answer) => {
        const expected = YES.includes(said(answer)) || (LABEL_MEANS_TICKED.has(id) && !NO.includes(said(answer)));
        assert.equal(consentAnswerOf(id, answer), expected ? "given" : "not_given");
      }),
      { numRuns: 2_000 },
    );
  });

  test("a list gives consent when it has an option and none is a no, whatever the order", () => {
    fc.assert(
      fc.property(builder, fc.array(text, { maxLength: 5 }), (id, list) => {
        const expected = list.length > 0 && list.every((item) => !NO.includes(said(item)));
        assert.equal(consentAnswerOf(id, list), expected ? "given" : "not_given");
        assert.equal(consentAnswerOf(id, [...list].reverse()), consentAnswerOf(id, list));
      }),
    );
  });
});

describe("the person as the builder gives them", () => {
  test("Jotform's ip, Gravity Forms' ip and user agent, Elementor's Advanced Data rows; nothing from the others", () => {
    assert.deepEqual(builderPerson("jotform", { ip: "203.0.113.9", formId: "1" }), { ip: "203.0.113.9", userAgent: null });
    assert.deepEqual(builderPerson("gravityforms", { ip: "203.0.113.9", user_agent: "Mozilla/5.0" }), {
      ip: "203.0.113.9",
      userAgent: "Mozilla/5.0",
    });
    assert.deepEqual(builderPerson("elementor", { remote_ip: "203.0.113.9", user_agent: "Mozilla/5.0" }), {
      ip: "203.0.113.9",
      userAgent: "Mozilla/5.0",
    });
    for (const id of ["typeform", "tally", "generic", "webflow"] as const)
      assert.deepEqual(builderPerson(id, { ip: "203.0.113.9" }), { ip: null, userAgent: null });
    assert.deepEqual(builderPerson("jotform", {}), { ip: null, userAgent: null });
  });
});
