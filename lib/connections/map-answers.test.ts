import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ApiError } from "../http/api-error";
import { LIMITS } from "../leads/lead-input-schema";
import { parseLeadInput } from "../leads/parse-lead-input";
import type { Answer } from "./answers";
import { tallyExample } from "./fixtures/tally-example";
import { parseGenericFields, parseGenericJson } from "./generic";
import { isAnswerTarget, mapAnswers, NO_NAME, type AnswerOverrides } from "./map-answers";
import { parseTallyDelivery } from "./tally";

const answer = (key: string, label: string, value: Answer["value"], type?: Answer["type"]): Answer => ({ key, label, value, type });
const lead = (answers: Answer[], overrides?: AnswerOverrides) => parseLeadInput(mapAnswers(answers, overrides).fields);

function assert422(run: () => unknown, error: string): void {
  assert.throws(run, (thrown: unknown) => thrown instanceof ApiError && thrown.status === 422 && thrown.error === error);
}

describe("Tally's documented example (https://tally.so/help/webhooks), mapped field by field", () => {
  const { answers } = parseTallyDelivery(tallyExample());

  test("no question of the example is a name: the delivery needs mapping, and parseLeadInput refuses it", () => {
    const mapped = mapAnswers(answers);
    assert.equal(mapped.needsMapping, NO_NAME);
    assert422(() => parseLeadInput(mapped.fields), "Name is required");
  });

  test("with the payer's name mapped to the name, it is a lead: typed answers to their fields, the hidden UTM by label, the rest extra", () => {
    const input = lead(answers, { question_wa9QBw_name: "name" });
    assert.deepEqual(input, {
      name: "Alice Smith",
      email: "alice@example.com",
      phone: "+32491223344",
      website: "example.com",
      utm_campaign: "newsletter",
      extraFields: {
        Score: 20,
        Type: "Hard",
        Text: "Hello",
        Number: 10,
        Date: "2023-06-28",
        Time: "12:00",
        "Long text": "Hello world",
        "Multiple choice": "In progress",
        Checkboxes: ["Swimming", "Skiing"],
        Dropdown: "Hard",
        "Multi-select": ["Surf", "Golf"],
        "File upload": [
          "https://storage.googleapis.com/tally-response-assets-dev/vBXMXN/34fd1ee5-4ead-4929-9a4a-918ac9f0b416/Tally_Icon.png",
        ],
        "Payment (price)": 9,
        "Payment (currency)": "USD",
        "Payment (email)": "alice@example.com",
        "Payment (link)": "https://dashboard.stripe.com/payments/[PAYMENT_ID]",
        Rating: 4,
        Ranking: ["Pear", "Apple", "Banana"],
        "Linear scale": 7,
        Signature: ["https://storage.googleapis.com/tally-response-assets-dev/vBXMXN/signatures/ca8f2e11-f99a-4042-b872-0888811b8118.png"],
        Matrix: ["Quality: Satisfied", "Speed: Neutral"],
      },
    });
  });

  test("each answer's target is reported for the connection's page", () => {
    const { answers: mapped } = mapAnswers(answers, { question_wa9QBw_name: "name", question_nr5yNw: "ignore" });
    const target = (key: string) => mapped.find((entry) => entry.key === key);
    assert.deepEqual(target("question_w4Q4Xn"), { key: "question_w4Q4Xn", label: "Email", target: "email", field: "email" });
    assert.deepEqual(target("question_nr5yNw"), { key: "question_nr5yNw", label: "Number", target: "ignore", field: null });
    assert.deepEqual(target("question_3EKz4n"), { key: "question_3EKz4n", label: "Text", target: "extra", field: "Text" });
  });
});

describe("mapping by type, then by label with the import's header recognition", () => {
  test("a form of the usual questions becomes a lead by their labels", () => {
    const input = lead([
      answer("q1", "Full name", "Ada Lovelace", "text"),
      answer("q2", "E-mail", "ada@example.com", "text"),
      answer("q3", "Company", "Analytical Engines", "text"),
      answer("q4", "Job title", "Mathematician", "text"),
      answer("q5", "Phone number", "+44 7911 123456", "text"),
      answer("q6", "utm_source", "newsletter", "hidden"),
      answer("q7", "Industry", ["Computing", "Looms"], "choice"),
    ]);
    assert.deepEqual(input, {
      name: "Ada Lovelace",
      email: "ada@example.com",
      organization: "Analytical Engines",
      job_title: "Mathematician",
      phone: "+44 7911 123456",
      utm_source: "newsletter",
      industry: "Computing, Looms",
      extraFields: {},
    });
  });

  test("first and last name are joined; a last name alone is the name", () => {
    assert.equal(lead([answer("a", "First name", "Ada", "first_name"), answer("b", "Surname", "Lovelace")]).name, "Ada Lovelace");
    assert.equal(lead([answer("b", "Nachname", "Lovelace")]).name, "Lovelace");
  });

  test("a full name wins over first and last name, which stay extra fields", () => {
    const input = lead([answer("a", "First name", "Ada"), answer("n", "Your name", "Ada L.", "name")]);
    assert.equal(input.name, "Ada L.");
    assert.deepEqual(input.extraFields, { "First name": "Ada" });
  });

  test("the builder's type comes before a label, and each lead field is filled once, by the first answer claiming it", () => {
    const input = lead([
      answer("a", "Name", "Ada"),
      answer("b", "Email", "typed-as-text@example.com", "text"),
      answer("c", "Where can we reach you?", "ada@example.com", "email"),
      answer("d", "Mobile", "+44 7911 123456", "phone"),
      answer("e", "Office phone", "+44 20 7946 0000", "phone"),
      answer("f", "Home page", "https://ada.example", "url"),
      answer("g", "Work email", "second@example.com", "email"),
    ]);
    assert.equal(input.email, "ada@example.com");
    assert.equal(input.mobile_no, "+44 7911 123456");
    assert.equal(input.phone, "+44 20 7946 0000");
    assert.equal(input.website, "https://ada.example");
    assert.deepEqual(input.extraFields, { Email: "typed-as-text@example.com", "Work email": "second@example.com" });
  });

  test("a file is never a lead field, whatever its label", () => {
    assert.deepEqual(lead([answer("n", "Name", "Ada"), answer("w", "Website", ["https://files.example/a.png"], "file")]).extraFields, {
      Website: ["https://files.example/a.png"],
    });
  });

  test("Generic JSON paths: the label, then the key's last segment; utm_* by key", () => {
    const { answers } = parseGenericJson({
      contact: { name: "Ada Lovelace", email: "ada@example.com" },
      company: { name: "Analytical Engines" },
      tracking: { utm_source: "newsletter", utm_campaign: "spring" },
      notes: "Call after 5",
    });
    assert.deepEqual(lead(answers), {
      name: "Ada Lovelace",
      email: "ada@example.com",
      organization: "Analytical Engines",
      utm_source: "newsletter",
      utm_campaign: "spring",
      extraFields: { notes: "Call after 5" },
    });
  });

  test("urlencoded fields with our own names map as they are; lists stay lists", () => {
    const { answers } = parseGenericFields([...new URLSearchParams("name=Ada&email=ada%40example.com&interests=a&interests=b")]);
    assert.deepEqual(lead(answers), { name: "Ada", email: "ada@example.com", extraFields: { interests: ["a", "b"] } });
  });
});

describe("extra field names", () => {
  test("duplicate labels are made unique; a label that is a lead field's name is never read as that field", () => {
    const input = lead([
      answer("n", "Name", "Ada"),
      answer("q1", "Question", "one"),
      answer("q2", "Question", "two"),
      answer("q3", "Question (2)", "three"),
      answer("e1", "email", "ada@example.com", "email"),
      answer("e2", "email", "not an address"),
    ]);
    assert.deepEqual(input.extraFields, {
      Question: "one",
      "Question (2)": "two",
      "Question (2) (2)": "three",
      "email (2)": "not an address",
    });
    assert.equal(input.email, "ada@example.com");
  });

  test("long labels are cut to the limit, duplicates too; line breaks become spaces; an empty label falls back to the key", () => {
    const long = `${"How did you hear about us? ".repeat(4)}`;
    const input = lead([
      answer("n", "Name", "Ada"),
      answer("l1", long, "a"),
      answer("l2", long, "b"),
      answer("x", "Your\nmessage\t[]", "c"),
      answer("k", " \n ", "d"),
    ]);
    const names = Object.keys(input.extraFields);
    assert.ok(names.every((name) => name.length <= LIMITS.extraFieldKey));
    assert.equal(names[0], `${long.slice(0, LIMITS.extraFieldKey - 1).trimEnd()}…`);
    assert.match(names[1]!, /… \(2\)$/);
    assert.deepEqual(names.slice(2), ["Your message", "k"]);
  });

  test("a cut never leaves half of a surrogate pair", () => {
    const label = `${"a".repeat(LIMITS.extraFieldKey - 2)}😀😀`;
    const [name] = Object.keys(lead([answer("n", "Name", "Ada"), answer("e", label, "x")]).extraFields);
    assert.equal(name, `${"a".repeat(LIMITS.extraFieldKey - 2)}…`);
  });
});

describe("overrides", () => {
  test("an override wins over type and label; ignore drops the answer; extra keeps a recognised label as an extra field", () => {
    const input = lead(
      [
        answer("q1", "Your name", "Ada", "name"),
        answer("q2", "Nickname", "Countess", "text"),
        answer("q3", "Email", "ada@example.com", "email"),
        answer("q4", "Title", "Dr", "text"),
      ],
      { q2: "name", q3: "ignore", q4: "extra" },
    );
    assert.deepEqual(input, { name: "Countess", extraFields: { "Your name": "Ada", Title: "Dr" } });
  });

  test("an override to a field already claimed by an earlier override keeps the answer as an extra field", () => {
    const input = lead([answer("a", "A", "Ada"), answer("b", "B", "Byron")], { a: "name", b: "name" });
    assert.deepEqual(input, { name: "Ada", extraFields: { B: "Byron" } });
  });

  test("overrides for keys not in the delivery, or to unknown targets, change nothing", () => {
    const answers = [answer("a", "Name", "Ada")];
    assert.deepEqual(lead(answers, { missing: "email", a: "nonsense" as never }), { name: "Ada", extraFields: {} });
    assert.equal(isAnswerTarget("extra_json"), false);
    assert.equal(isAnswerTarget("first_name"), true);
  });
});

describe("whatever the answers and overrides, parseLeadInput takes the fields or refuses them with its own 422 (fast-check)", () => {
  // "constructor" is no type of ours: an answer replayed from a stored payload could still carry anything.
  const type = fc.constantFrom(
    undefined,
    "email",
    "phone",
    "name",
    "first_name",
    "last_name",
    "url",
    "text",
    "choice",
    "hidden",
    "file",
    "constructor",
  );
  const label = fc.oneof(
    fc.constantFrom(
      "Name",
      "Full name",
      "First name",
      "Surname",
      "E-mail",
      "Company",
      "utm_source",
      "email",
      "name",
      "Question",
      "x[]",
      "",
    ),
    fc.string({ maxLength: 80 }),
    fc.string({ unit: "binary", maxLength: 80 }),
  );
  const value = fc.oneof(fc.string({ unit: "binary" }), fc.double(), fc.boolean(), fc.array(fc.string(), { maxLength: 4 }));
  const answerArb = fc.record({ key: fc.constantFrom("a", "b", "c", "d", "x.email", "t.utm_medium"), label, type, value });
  const target = fc.constantFrom("name", "first_name", "last_name", "email", "phone", "organization", "extra", "ignore", "bogus");
  const overrides = fc.dictionary(fc.constantFrom("a", "b", "c", "x.email"), target) as fc.Arbitrary<AnswerOverrides>;

  test("mapAnswers never throws; parseLeadInput returns or throws a 422 ApiError; needsMapping agrees with it", () => {
    fc.assert(
      fc.property(fc.array(answerArb, { maxLength: 60 }), overrides, (answers, chosen) => {
        const mapped = mapAnswers(answers as Answer[], chosen);
        assert.equal(mapped.answers.length, answers.length);
        let refusal: ApiError | null = null;
        try {
          parseLeadInput(mapped.fields);
        } catch (error) {
          assert.ok(error instanceof ApiError && error.status === 422, `not a 422: ${String(error)}`);
          refusal = error;
        }
        // needsMapping is never wrong: a delivery it flags is refused, and one refused for its name is flagged.
        if (mapped.needsMapping) assert.ok(refusal);
        if (refusal?.error === "Name is required") assert.equal(mapped.needsMapping, NO_NAME);
      }),
      { numRuns: 1000 },
    );
  });

  test("keys and labels are stored as valid Unicode (a lone surrogate, refused by PostgreSQL's jsonb, becomes U+FFFD)", () => {
    const mapped = mapAnswers([
      { key: "name", label: "Name", value: "Ada Lovelace" },
      { key: "q\ud800", label: "Note \udc00", value: "hi" },
    ]);
    assert.deepEqual(mapped.answers[1], { key: "q\ufffd", label: "Note \ufffd", target: "extra", field: "Note \ufffd" });
    // The override of that answer is keyed as the page shows it.
    assert.equal(mapAnswers([{ key: "q\ud800", label: "x", value: "Ada" }], { "q\ufffd": "name" }).needsMapping, null);
  });

  test("one label repeated thousands of times: each gets its own number, in order", () => {
    const answers = Array.from({ length: 5000 }, (_, i) => ({ key: `k${i}`, label: "x", value: String(i) }));
    const names = mapAnswers(answers).answers.map((answer) => answer.field);
    assert.deepEqual(names.slice(0, 3), ["x", "x (2)", "x (3)"]);
    assert.equal(names.at(-1), "x (5000)");
    assert.equal(new Set(names).size, 5000);
  });
});

describe('the consent target (docs/consent.md "Connections")', () => {
  const answers = [
    answer("name", "Full name", "Ada Lovelace"),
    answer("q1", "Newsletter", ["I agree"], "choice"),
    answer("q2", "Offers", true, "choice"),
  ];

  test("the answer mapped to consent stays an extra field as sent, and is returned as the consent", () => {
    const mapped = mapAnswers(answers, { q1: "consent" });
    assert.deepEqual(mapped.consent, { value: ["I agree"] });
    assert.deepEqual(parseLeadInput(mapped.fields).extraFields, { Newsletter: ["I agree"], Offers: true });
    assert.deepEqual(
      mapped.answers.map((mappedAnswer) => [mappedAnswer.key, mappedAnswer.target, mappedAnswer.field]),
      [
        ["name", "name", "name"],
        ["q1", "consent", "Newsletter"],
        ["q2", "extra", "Offers"],
      ],
    );
    assert.equal(isAnswerTarget("consent"), true);
  });

  test("one answer is the consent: a second one mapped to it stays an extra field; none mapped, no consent", () => {
    const mapped = mapAnswers(answers, { q1: "consent", q2: "consent" });
    assert.deepEqual(mapped.consent, { value: ["I agree"] });
    assert.equal(mapped.answers.find((mappedAnswer) => mappedAnswer.key === "q2")!.target, "extra");
    assert.equal(mapAnswers(answers).consent, null);
    assert.equal(mapAnswers(answers, { absent: "consent" }).consent, null);
  });
});
