import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { googleFormsExample, withBody } from "./fixtures/googleforms-example";
import { parseGoogleFormsDelivery } from "./googleforms";
import { mapAnswers } from "./map-answers";

// The fixture is what our Apps Script posts for an invented response (see
// fixtures/googleforms-example.ts); googleforms-script.test.ts proves the script posts it.

const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);
const answer = (type: string, value: unknown, more: Record<string, unknown> = {}) => ({ itemId: 7, title: "Q", type, value, ...more });

describe("the example body", () => {
  const delivery = parseGoogleFormsDelivery(googleFormsExample());

  test("the submission id is responseId; the form's id, title and the time are metadata", () => {
    assert.equal(delivery.submissionId, "2_ABaOnucGx7Xv3hQyT9pLmR2sWkJ4dF8bN1cE6aH0tZ");
    assert.deepEqual(delivery.meta, {
      formId: "1yZ3k8Q0hJc5eTtW9fLm2nXpR4sVbA7uD6gE0iO1qKwY",
      formTitle: "Contact us",
      submittedAt: "2025-03-14T09:26:53.589Z",
    });
  });

  test("the respondent's email first (typed email), then every item by its id and title, typed by its ItemType", () => {
    assert.deepEqual(triples(delivery), [
      ["Email address", "email", "ada@example.com"],
      ["Full name", "text", "Ada Lovelace"],
      ["Phone number", "text", "+32 491 22 33 44"],
      ["Company", "text", "Analytical Engines Ltd"],
      ["How can we help?", "text", "Please call me back\nabout the engine."],
      ["Preferred contact", "choice", "Phone"],
      ["Interests", "choice", ["Engines", "Looms"]],
      ["Best day to call", "date", "2025-03-20"],
      ["How likely are you to buy?", "number", "4"],
      // A grid: one "Row: Column" per answered row; the unanswered row ('') is left out.
      ["Rate our service", "choice", ["Speed: Fast"]],
      ["When can we call?", "choice", ["Monday: Morning, Evening"]],
    ]);
    assert.deepEqual(
      delivery.answers.map((answer) => answer.key),
      [
        "respondentEmail",
        ...["1718226367", "2004958823", "95871624", "1339561780", "784123951", "1650917248"],
        ...["462890117", "1893306542", "1205547730", "301772659"],
      ],
    );
  });

  test("mapped: the title gives the name, phone and organization; the collected email is the lead's; the rest are extra fields", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["organization", "Analytical Engines Ltd"],
      ["How can we help?", "Please call me back\nabout the engine."],
      ["Preferred contact", "Phone"],
      ["Interests", ["Engines", "Looms"]],
      ["Best day to call", "2025-03-20"],
      ["How likely are you to buy?", "4"],
      ["Rate our service", ["Speed: Fast"]],
      ["When can we call?", ["Monday: Morning, Evening"]],
    ]);
  });

  test("a form that does not collect emails: no respondentEmail (or an empty one), no such answer", () => {
    for (const email of [undefined, "", null]) {
      const delivery = parseGoogleFormsDelivery(withBody((body) => (body.respondentEmail = email)));
      assert.equal(delivery.answers[0]!.label, "Full name");
      assert.equal(delivery.answers.length, 10);
    }
  });

  test("the collected email wins over an Email question (typed before titled); the question is kept as an extra field", () => {
    const body = withBody((b) => b.answers.push(answer("TEXT", "other@example.com", { title: "Email" })));
    const mapped = mapAnswers(parseGoogleFormsDelivery(body).answers);
    assert.deepEqual(mapped.fields[1], ["email", "ada@example.com"]);
    assert.deepEqual(mapped.fields.at(-1), ["Email", "other@example.com"]);
  });
});

describe("Google Forms answers", () => {
  // The one answer alone: the form collects no email here.
  const only = (raw: unknown) =>
    parseGoogleFormsDelivery(
      withBody((body) => {
        delete body.respondentEmail;
        body.answers = [raw as Record<string, unknown>];
      }),
    ).answers;

  test("every ItemType's type; an unknown type (a text or a list) is kept untyped", () => {
    const types: [string, string | undefined][] = [
      ["TEXT", "text"],
      ["PARAGRAPH_TEXT", "text"],
      ["DURATION", "text"],
      ["MULTIPLE_CHOICE", "choice"],
      ["LIST", "choice"],
      ["CHECKBOX", "choice"],
      ["SCALE", "number"],
      ["RATING", "number"],
      ["DATE", "date"],
      ["TIME", "date"],
      ["DATETIME", "date"],
      ["FILE_UPLOAD", "file"],
      ["SOMETHING_NEW", undefined],
      ["constructor", undefined],
    ];
    for (const [type, expected] of types) assert.equal(only(answer(type, "x"))[0]!.type, expected, type);
    assert.deepEqual(only(answer("SOMETHING_NEW", ["a", "b"]))[0]!.value, ["a", "b"]);
  });

  test("empty answers are no answer: '', [], a list of '', a grid with no answered row", () => {
    for (const raw of [
      answer("TEXT", ""),
      answer("CHECKBOX", []),
      answer("CHECKBOX", [""]),
      answer("GRID", ["", ""], { rows: ["a", "b"] }),
      answer("CHECKBOX_GRID", [[], "", null], { rows: ["a", "b", "c"] }),
    ]) {
      assert.deepEqual(only(raw), []);
    }
  });

  test("a file upload's values (Drive file ids) stay a list, typed file: never a lead field", () => {
    const answers = only(answer("FILE_UPLOAD", ["1AbCdEf", "2GhIjKl"], { title: "Website" }));
    assert.deepEqual(triples({ submissionId: null, answers, meta: {} }), [["Website", "file", ["1AbCdEf", "2GhIjKl"]]]);
    assert.equal(
      mapAnswers(answers).fields.find(([name]) => name === "website"),
      undefined,
    );
  });

  test("grids: rows named by `rows`, else 'Row <n>'; a checkbox grid's row may be one text; null rows are unanswered", () => {
    assert.deepEqual(only(answer("GRID", ["Good", null, "Bad"], { rows: ["Food", "Drinks"] }))[0]!.value, ["Food: Good", "Row 3: Bad"]);
    assert.deepEqual(only(answer("GRID", ["Good"], { rows: [""] }))[0]!.value, ["Row 1: Good"]);
    assert.deepEqual(only(answer("CHECKBOX_GRID", ["A", ["B", "", "C"]]))[0]!.value, ["Row 1: A", "Row 2: B, C"]);
  });

  test("an item id may be a text; a question without a title is named by its item id", () => {
    assert.deepEqual(only({ itemId: "abc", title: "T", type: "TEXT", value: "v" })[0]!.key, "abc");
    assert.equal(only({ itemId: 42, type: "TEXT", value: "v" })[0]!.label, "42");
    assert.equal(only({ itemId: 42, title: "  ", type: "TEXT", value: "v" })[0]!.label, "42");
  });

  test("no responseId: no submission id (the intake then uses the body's digest)", () => {
    assert.equal(parseGoogleFormsDelivery(withBody((body) => delete body.responseId)).submissionId, null);
    assert.equal(parseGoogleFormsDelivery(withBody((body) => (body.responseId = null))).submissionId, null);
  });
});

function assertUnknown(body: unknown, message: RegExp): void {
  assert.throws(
    () => parseGoogleFormsDelivery(body),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

describe("other shapes are refused, never guessed", () => {
  const one = (raw: unknown) => withBody((body) => (body.answers = [raw as Record<string, unknown>]));
  const cases: [string, unknown, RegExp][] = [
    ["not an object", ["x"], /JSON object/],
    ["another source", { ...googleFormsExample(), source: "zapier" }, /"google-forms-apps-script" \(our Apps Script\), not "zapier"/],
    ["no source (a body from elsewhere)", { answers: [] }, /not none/],
    ["another version", { ...googleFormsExample(), version: 2 }, /version 1 of the script's body, not number/],
    ["a version as text", { ...googleFormsExample(), version: "1" }, /not "1"/],
    ["a responseId that is a number", withBody((b) => (b.responseId = 5)), /responseId is text/],
    ["a formTitle that is an object", withBody((b) => (b.formTitle = {})), /formTitle is text/],
    ["a respondentEmail that is a list", withBody((b) => (b.respondentEmail = ["a"])), /respondentEmail is text/],
    ["no answers", withBody((b) => delete (b as Record<string, unknown>).answers), /answers list/],
    ["answers that are an object", withBody((b) => ((b as Record<string, unknown>).answers = {})), /answers list/],
    ["an answer that is not an object", one("x"), /answer 1 is not an object/],
    ["an answer without an itemId", one({ title: "T", type: "TEXT", value: "v" }), /answer 1 has no itemId/],
    ["an itemId that is a fraction", one(answer("TEXT", "v", { itemId: 1.5 })), /no itemId/],
    ["an answer without a type", one({ itemId: 1, title: "T", value: "v" }), /answer 1 has no type/],
    ["a title that is a number", one(answer("TEXT", "v", { title: 3 })), /title that is not text/],
    ["a value that is a number", one(answer("TEXT", 3)), /answer 1 \(TEXT\) has a value of a shape/],
    ["a value that is an object", one(answer("CHECKBOX", { a: 1 })), /\(CHECKBOX\) has a value/],
    ["a list of lists outside a grid", one(answer("CHECKBOX", [["a"]])), /has a value/],
    ["a grid value that is a text", one(answer("GRID", "a")), /\(GRID\) has a value/],
    ["a grid row that is a number", one(answer("CHECKBOX_GRID", [[1]])), /\(CHECKBOX_GRID\) has a value/],
    ["grid rows that are not texts", one(answer("GRID", ["a"], { rows: [1] })), /rows that are not a list of texts/],
    ["no value", one({ itemId: 1, title: "T", type: "TEXT" }), /has a value/],
  ];
  for (const [name, body, message] of cases) test(name, () => assertUnknown(body, message));

  test("a refusal names no answer's content", () => {
    const secret = "s3cret-answer-text";
    try {
      parseGoogleFormsDelivery(one(answer("TEXT", { secret })));
      assert.fail("refused");
    } catch (error) {
      assert.ok(error instanceof UnknownPayload && !error.message.includes(secret));
    }
  });
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (body: unknown) => {
    try {
      assert.ok(Array.isArray(parseGoogleFormsDelivery(body).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const mostly = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const type = fc.constantFrom(
    ...["TEXT", "PARAGRAPH_TEXT", "MULTIPLE_CHOICE", "CHECKBOX", "LIST", "SCALE", "RATING", "DATE", "TIME"],
    ...["DATETIME", "DURATION", "GRID", "CHECKBOX_GRID", "FILE_UPLOAD", "constructor", "__proto__"],
  );
  const text = fc.oneof(fc.string(), fc.constant(""));
  const documentedValue = fc.oneof(
    text,
    fc.array(text, { maxLength: 4 }),
    fc.array(fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxLength: 4 }),
  );
  const itemId = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.string({ minLength: 1 }));

  test("any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 500 });
  });

  test("script-shaped bodies with documented values never throw at all", () => {
    const body = fc.record(
      {
        source: fc.constant("google-forms-apps-script"),
        version: fc.constant(1),
        formId: fc.string(),
        formTitle: fc.string(),
        responseId: fc.string(),
        submittedAt: fc.string(),
        respondentEmail: fc.string(),
        answers: fc.array(
          fc.record(
            { itemId, title: fc.string(), type, value: documentedValue, rows: fc.array(fc.string(), { maxLength: 4 }) },
            { requiredKeys: ["itemId", "type", "value"] },
          ),
          { maxLength: 6 },
        ),
      },
      { requiredKeys: ["source", "version", "answers"] },
    );
    fc.assert(
      fc.property(
        // A grid's value is a list; a list of lists only comes from CHECKBOX_GRID.
        body.map((generated) => {
          for (const raw of generated.answers) {
            const nested = Array.isArray(raw.value) && raw.value.some(Array.isArray);
            if (raw.type === "GRID" || raw.type === "CHECKBOX_GRID") raw.value = Array.isArray(raw.value) ? raw.value : [raw.value];
            else if (nested) raw.type = "CHECKBOX_GRID";
            if (raw.type === "GRID")
              raw.value = (raw.value as (string | string[])[]).map((cell) => (Array.isArray(cell) ? cell.join("") : cell));
          }
          return generated;
        }),
        (generated) => {
          const delivery = parseGoogleFormsDelivery(generated);
          assert.ok(delivery.answers.every((answer) => typeof answer.key === "string" && answer.key !== "" && answer.label !== ""));
          assert.equal(
            delivery.submissionId,
            generated.responseId === "" || generated.responseId === undefined ? null : generated.responseId,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  test("script-shaped bodies with any values: a Delivery or UnknownPayload", () => {
    const body = fc.record(
      {
        source: mostly(fc.constant("google-forms-apps-script")),
        version: mostly(fc.constant(1)),
        responseId: fc.jsonValue(),
        formTitle: fc.jsonValue(),
        respondentEmail: fc.jsonValue(),
        answers: mostly(
          fc.array(
            mostly(
              fc.record(
                { itemId: mostly(itemId), title: fc.jsonValue(), type: mostly(type), value: fc.jsonValue(), rows: fc.jsonValue() },
                { requiredKeys: [] },
              ),
            ),
            { maxLength: 5 },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(body, check), { numRuns: 1000 });
  });
});
