import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { parseFilloutDelivery } from "./fillout";
import { filloutEnvelope, filloutExample } from "./fixtures/fillout-example";
import { mapAnswers } from "./map-answers";

// The fixture is the submission of Fillout's documented example ("Get all submissions", see
// fixtures/fillout-example.ts for its source); tests add questions where they say so.

const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);

describe("Fillout's documented example", () => {
  const delivery = parseFilloutDelivery(filloutEnvelope());

  test("the submission id is submissionId; the form's id and name and the submission's time are metadata", () => {
    assert.equal(delivery.submissionId, "abc");
    assert.deepEqual(delivery.meta, { formId: "foAdHjd1Duus", formName: "Book a call", submittedAt: "2024-05-16T23:20:05.324Z" });
  });

  test("questions, then the booking, the URL parameters, the calculations and the quiz, field by field", () => {
    assert.deepEqual(triples(delivery), [
      ["What's your name?", "text", "Timmy"],
      ["30 min meeting: fullName", undefined, "John Smith"],
      ["30 min meeting: email", undefined, "john@smith.com"],
      ["30 min meeting: timezone", undefined, "Europe/London"],
      ["30 min meeting: eventStartTime", undefined, "2024-05-20T09:00:00.000Z"],
      ["30 min meeting: eventEndTime", undefined, "2024-05-20T09:30:00.000Z"],
      ["30 min meeting: eventId", undefined, "du5ckkaeacd5dlj16d7ajepp8g"],
      [
        "30 min meeting: eventUrl",
        undefined,
        "https://www.google.com/calendar/event?eid=ZHU1Y2trYWVhY2Q1ZGxqMTZkN2FqZXBwOGcgYXJjaGllQGZpbGxvdXQuY29t&authuser=john%40smith.com",
      ],
      [
        "30 min meeting: rescheduleOrCancelUrl",
        undefined,
        "https://schedule.fillout.com/event/3EhDXDtvEtus?t=Cq52ZAGUnDpnnlatjDKD1yjtGCFNGajY",
      ],
      ["email", "hidden", "example@example.com"],
      ["price", "number", "12.50"],
      ["Quiz score", "number", 5],
      ["Quiz maximum score", "number", 10],
    ]);
    assert.deepEqual(
      delivery.answers.slice(0, 3).map((answer) => answer.key),
      ["abcdef", "scheduling.nLJtxBJgPA.fullName", "scheduling.nLJtxBJgPA.email"],
    );
  });

  test("mapped: the booking's full name and email make the lead (read by the key's last part); the rest are extra fields", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    const fields = new Map(mapped.fields);
    assert.equal(fields.get("name"), "John Smith");
    assert.equal(fields.get("email"), "john@smith.com");
    // "What's your name?" names no lead field; the URL parameter's email is the second one.
    assert.equal(fields.get("What's your name?"), "Timmy");
    assert.equal(fields.get("email (2)"), "example@example.com");
    assert.equal(fields.get("price"), "12.50");
  });

  test("the same submission without the envelope is the same delivery, without the form's id and name", () => {
    const bare = parseFilloutDelivery(filloutExample());
    assert.deepEqual(bare.answers, delivery.answers);
    assert.equal(bare.submissionId, "abc");
    assert.deepEqual(bare.meta, { submittedAt: "2024-05-16T23:20:05.324Z" });
  });
});

describe("Fillout question types (the SDK's FILLOUT_QUESTION_TYPES)", () => {
  test("typed questions win over the booking; lists stay lists; passwords and captchas are never kept (questions added)", () => {
    const delivery = parseFilloutDelivery(
      filloutEnvelope((submission) => {
        submission.questions.push(
          { id: "q1", name: "First name", type: "ShortAnswer", value: "Ada" },
          { id: "q2", name: "Last name", type: "ShortAnswer", value: "Lovelace" },
          { id: "q3", name: "Work email", type: "EmailInput", value: "ada@example.com" },
          { id: "q4", name: "Mobile", type: "PhoneNumber", value: "+32 491 22 33 44" },
          { id: "q5", name: "Site", type: "URLInput", value: "https://example.com" },
          { id: "q6", name: "Topics", type: "Checkboxes", value: ["Pricing", "", "Security"] },
          { id: "q7", name: "Team size", type: "NumberInput", value: 12 },
          { id: "q8", name: "Newsletter", type: "Checkbox", value: false },
          { id: "q9", name: "Password", type: "Password", value: "hunter2" },
          { id: "q10", name: "Captcha", type: "Captcha", value: "token" },
          { id: "q11", name: "Address", type: "Address", value: { city: "London", country: "GB" } },
          { id: "q12", name: "CV", type: "FileUpload", value: [{ url: "https://x/cv.pdf", filename: "cv.pdf" }] },
          { id: "q13", name: "Skipped", type: "LongAnswer", value: null },
          { id: "q14", name: "", type: "SomeNewType", value: "kept" },
        );
        submission.urlParameters.push({ id: "utm_source", name: "utm_source", value: "newsletter" });
      }),
    );
    assert.deepEqual(triples(delivery).slice(1, 13), [
      ["First name", "text", "Ada"],
      ["Last name", "text", "Lovelace"],
      ["Work email", "email", "ada@example.com"],
      ["Mobile", "phone", "+32 491 22 33 44"],
      ["Site", "url", "https://example.com"],
      ["Topics", "choice", ["Pricing", "Security"]],
      ["Team size", "number", 12],
      ["Newsletter", "choice", false],
      // Values of shapes Fillout does not document are kept as their JSON text.
      ["Address", undefined, '{"city":"London","country":"GB"}'],
      ["CV", "file", ['{"url":"https://x/cv.pdf","filename":"cv.pdf"}']],
      // A type the SDK does not list, a question without a name (its id names it).
      ["q14", undefined, "kept"],
      ["30 min meeting: fullName", undefined, "John Smith"],
    ]);
    const fields = new Map(mapAnswers(delivery.answers).fields);
    assert.equal(fields.get("name"), "Ada Lovelace");
    assert.equal(fields.get("email"), "ada@example.com");
    assert.equal(fields.get("mobile_no"), "+32 491 22 33 44");
    assert.equal(fields.get("website"), "https://example.com");
    assert.equal(fields.get("utm_source"), "newsletter");
    assert.ok(![...fields.values()].includes("hunter2"));
  });

  test("payments, documents and a login: typed and keyed by their place (added to the example)", () => {
    const delivery = parseFilloutDelivery({
      ...filloutExample(),
      payments: [
        { id: "cLJtxCKgdL", name: "Deposit", value: { totalAmount: 1000, currency: "USD", status: "succeeded", discountCode: null } },
      ],
      documents: [{ id: "d1", name: "Receipt", url: "https://x/receipt.pdf" }],
      login: { email: "login@example.com" },
      scheduling: [{ id: "s1", name: "Call", value: null }],
    });
    assert.deepEqual(
      triples(delivery).filter(([, type]) => type === "payment" || type === "file"),
      [
        ["Deposit: totalAmount", "payment", 1000],
        ["Deposit: currency", "payment", "USD"],
        ["Deposit: status", "payment", "succeeded"],
        ["Receipt", "file", "https://x/receipt.pdf"],
      ],
    );
    assert.deepEqual(triples(delivery).at(-1), ["Login email", undefined, "login@example.com"]);
    assert.ok(!delivery.answers.some((answer) => answer.key.startsWith("scheduling.")));
  });

  test("an id named constructor or __proto__ is an answer like any other; no submissionId: none", () => {
    const delivery = parseFilloutDelivery({
      questions: [
        { id: "constructor", name: "constructor", type: "constructor", value: "a" },
        { id: "__proto__", name: "toString", type: "toString", value: "b" },
      ],
    });
    assert.deepEqual(triples(delivery), [
      ["constructor", undefined, "a"],
      ["toString", undefined, "b"],
    ]);
    assert.equal(delivery.submissionId, null);
  });
});

function assertUnknown(body: unknown, message: RegExp): void {
  assert.throws(
    () => parseFilloutDelivery(body),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

test("an entry with neither a name nor a visible id is labelled by its place (found by fast-check: seed 1415529526)", () => {
  const delivery = parseFilloutDelivery({ submissionId: "s", questions: [], urlParameters: [{ id: " ", name: "", value: "x" }] });
  assert.deepEqual(
    delivery.answers.map((answer) => [answer.key, answer.label]),
    [["urlParameters. ", "URL parameter 1"]],
  );
});

describe("unknown Fillout shapes are refused, never guessed", () => {
  const example = filloutExample();
  const cases: [string, unknown, RegExp][] = [
    ["not an object", [example], /JSON object/],
    ["no questions", { submissionId: "abc" }, /questions list/],
    ["a submission that is a list", { submission: [example] }, /submission is an object, not object/],
    ["a submission that is text", { submission: "abc" }, /not "abc"/],
    ["an envelope without questions", { formId: "x", submission: { submissionId: "abc" } }, /questions list/],
    ["questions that are an object", { questions: { a: 1 } }, /questions list/],
    ["a question that is not an object", { questions: ["a"] }, /question 1 is not an object/],
    ["a question without an id", { questions: [{ name: "Email", value: "x" }] }, /question 1 has no id/],
    ["URL parameters that are an object", { ...example, urlParameters: { email: "x" } }, /URL parameter entries are a list/],
    ["a booking whose value is text", { ...example, scheduling: [{ id: "s", name: "Call", value: "x" }] }, /value is an object/],
    [
      "a value nested deeper than 32 levels",
      { questions: [{ id: "q", value: JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) }] },
      /nested/,
    ],
  ];
  for (const [name, body, message] of cases) test(name, () => assertUnknown(body, message));
});

describe("any JSON gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (body: unknown) => {
    try {
      assert.ok(Array.isArray(parseFilloutDelivery(body).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const mostly = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const id = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("constructor", "__proto__", "email", "utm_source"));
  const type = fc.constantFrom("EmailInput", "PhoneNumber", "ShortAnswer", "Checkboxes", "FileUpload", "Password", "constructor", "Nope");
  const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.jsonValue());
  const entry = fc.record({ id, name: fc.string(), type, value }, { requiredKeys: [] });
  const submission = fc.record(
    {
      submissionId: fc.string(),
      submissionTime: fc.string(),
      questions: mostly(fc.array(mostly(entry), { maxLength: 6 })),
      urlParameters: mostly(fc.array(mostly(entry), { maxLength: 3 })),
      calculations: mostly(fc.array(mostly(entry), { maxLength: 3 })),
      scheduling: mostly(fc.array(mostly(fc.record({ id, name: fc.string(), value: mostly(fc.dictionary(fc.string(), value)) })))),
      payments: mostly(fc.array(mostly(fc.record({ id, name: fc.string(), value: mostly(fc.dictionary(fc.string(), value)) })))),
      quiz: fc.jsonValue(),
      documents: mostly(fc.array(mostly(fc.record({ id, name: fc.string(), url: fc.string() })))),
      login: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );

  test("any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 500 });
  });

  test("Fillout-shaped bodies with any values, with or without the envelope", () => {
    const body = fc.oneof(submission, fc.record({ formId: fc.jsonValue(), formName: fc.jsonValue(), submission: mostly(submission) }));
    fc.assert(fc.property(body, check), { numRuns: 1000 });
  });

  test("Fillout-shaped bodies with documented values never throw at all", () => {
    const documented = fc.record({
      submissionId: fc.string(),
      questions: fc.array(fc.record({ id, name: fc.string(), type, value: fc.oneof(fc.string(), fc.integer(), fc.array(fc.string())) })),
      urlParameters: fc.array(fc.record({ id, name: fc.string(), value: fc.oneof(fc.string(), fc.constant(null)) })),
    });
    fc.assert(
      fc.property(documented, (generated) => {
        const delivery = parseFilloutDelivery({ submission: generated });
        assert.ok(delivery.answers.every((answer) => answer.label.trim() !== ""));
        // A password is never an answer: only the other questions' answers are kept.
        const kept = delivery.answers.filter((answer) => !answer.key.startsWith("urlParameters."));
        assert.ok(kept.length <= generated.questions.filter((question) => question.type !== "Password").length);
      }),
      { numRuns: 500 },
    );
  });
});
