import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import { WPFORMS_EXAMPLE_FORM, WPFORMS_EXAMPLE_JSON } from "./fixtures/wpforms-example";
import { mapAnswers } from "./map-answers";
import { parseWPFormsDelivery, readWPFormsBody } from "./wpforms";

// The fixtures are what the Webhooks addon's own code writes (fixtures/wpforms-example.ts):
// the same Request Body sent as JSON and as a form.

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
const read = (bytes: Uint8Array | string, mediaType: string) =>
  readWPFormsBody({ bytes: new Uint8Array(Buffer.from(bytes)), contentType: `${mediaType}; charset=utf-8`, mediaType });
const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);

describe("WPForms' example, sent as JSON and as a form", () => {
  const asJson = read(WPFORMS_EXAMPLE_JSON, JSON_TYPE);
  const asForm = read(WPFORMS_EXAMPLE_FORM, FORM_TYPE);

  test("every Request Body key under its name, field by field: '||' split back into a list, a date's text, a file's URLs", () => {
    assert.deepEqual(triples(asJson), [
      ["name", undefined, "Renée Dupont"],
      ["email", undefined, "renee.dupont@example.com"],
      ["phone", undefined, "+32 491 22 33 44"],
      ["company", undefined, "Acme Widgets & Co"],
      ["services", undefined, ["Web design", "SEO"]],
      ["message", undefined, "Hi! Please call me after 5pm.\nThanks."],
      ["website", undefined, "https://example.com/about"],
      ["callback", "date", "06/16/2025 10:30 am"],
      ["attachments", undefined, ["https://example.com/wp-content/uploads/wpforms/12-0f3c/brief.pdf"]],
      ["utm_source", undefined, "newsletter"],
    ]);
  });

  test("the form gives the same answers; neither has a submission id (WPForms sends none); the format is metadata", () => {
    assert.deepEqual(asForm.answers, asJson.answers);
    assert.deepEqual([asJson.submissionId, asForm.submissionId], [null, null]);
    assert.deepEqual([asJson.meta, asForm.meta], [{ format: "json" }, { format: "form" }]);
  });

  test("mapped by the keys: name, email, phone, organization, website, utm_source; the rest extra fields, lists kept", () => {
    const mapped = mapAnswers(asJson.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Renée Dupont"],
      ["email", "renee.dupont@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["organization", "Acme Widgets & Co"],
      ["services", ["Web design", "SEO"]],
      ["message", "Hi! Please call me after 5pm.\nThanks."],
      ["website", "https://example.com/about"],
      ["callback", "06/16/2025 10:30 am"],
      ["attachments", ["https://example.com/wp-content/uploads/wpforms/12-0f3c/brief.pdf"]],
      ["utm_source", "newsletter"],
    ]);
  });
});

describe("WPForms values", () => {
  test("a field left empty sends '': no answer; '||' around nothing is dropped; an address's lines are a list", () => {
    const delivery = parseWPFormsDelivery({
      empty: "",
      blank: "||",
      address: "1 Main St||Apt 4||Ghent, 9000||BE",
      gaps: "A||||B||",
      date: { value: "", unix: false },
      files: [],
      constructor: "kept",
    });
    assert.deepEqual(triples(delivery), [
      ["address", undefined, ["1 Main St", "Apt 4", "Ghent, 9000", "BE"]],
      ["gaps", undefined, ["A", "B"]],
      ["constructor", undefined, "kept"],
    ]);
  });

  test("keys 0, 1 … (json_encode writes them as a list; an empty Request Body as []) are keys", () => {
    assert.deepEqual(triples(parseWPFormsDelivery(["Ada", "", "ada@example.com"])), [
      ["0", undefined, "Ada"],
      ["2", undefined, "ada@example.com"],
    ]);
    assert.deepEqual(read("[]", JSON_TYPE).answers, []);
    assert.deepEqual(read("", FORM_TYPE).answers, []);
  });

  test("a form body: `key[0]` items are a list, `key[value]` a date, '+' a space; a key named __proto__ is a key", () => {
    const delivery = read(
      "__proto__=x&files%5B0%5D=a&files%5B1%5D=b&when%5Bvalue%5D=06%2F16%2F2025&when%5Bunix%5D=1&say=a+b%2Bc",
      FORM_TYPE,
    );
    assert.deepEqual(triples(delivery), [
      ["__proto__", undefined, "x"],
      ["files", undefined, ["a", "b"]],
      ["when", "date", "06/16/2025"],
      ["say", undefined, "a b+c"],
    ]);
  });
});

function assertUnknown(run: () => unknown, message: RegExp): void {
  assert.throws(
    run,
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message) && !error.message.includes("Ghent"),
  );
}

describe("unknown WPForms shapes are refused, never guessed", () => {
  const bodies: [string, unknown, RegExp][] = [
    ["a text", "Ghent", /object of the Request Body's keys/],
    ["null", null, /object/],
    ["an object that is no date", { a: { city: "Ghent" } }, /key 1 has a value the Webhooks addon does not send \(object\)/],
    ["a date without its text", { a: "x", b: { unix: 1 } }, /key 2/],
    ["a date with more", { a: { value: "Ghent", unix: 1, tz: "UTC" } }, /key 1/],
    ["a list of objects", { a: [{ url: "Ghent" }] }, /key 1/],
  ];
  for (const [name, body, message] of bodies) test(name, () => assertUnknown(() => parseWPFormsDelivery(body), message));

  const forms: [string, string][] = [
    ["a malformed %-escape", "name=Ghent%ZZ"],
    ["bytes that are not UTF-8", "name=%C3%28"],
    ["a key sent twice", "name=a&name=Ghent"],
    ["a key both a text and a list", "a=Ghent&a%5B0%5D=b"],
    ["a bracket not closed", "a%5B0=Ghent"],
    ["a name that is only brackets", "%5B0%5D=Ghent"],
  ];
  for (const [name, body] of forms) test(`a form: ${name}`, () => assertUnknown(() => read(body, FORM_TYPE), /as WordPress encodes them/));

  test("multipart, which the addon never sends", () =>
    assertUnknown(() => read("--x\r\n\r\n--x--", "multipart/form-data"), /as JSON or as a form/));
  test("JSON that is not JSON: a 400, as for every builder", () => assert.throws(() => read("{", JSON_TYPE), /not valid JSON/));
});

describe("any body gives a Delivery or UnknownPayload (fast-check)", () => {
  const check = (run: () => Delivery) => {
    try {
      assert.ok(Array.isArray(run().answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };

  test("any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => check(() => parseWPFormsDelivery(body))),
      { numRuns: 1000 },
    );
  });

  test("any text sent as a form", () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^([a-z%5BD0-9]{0,6}=[a-z%+C3]{0,6}&?){0,4}$/));
    fc.assert(
      fc.property(text, (body) => check(() => read(body, FORM_TYPE))),
      { numRuns: 1000 },
    );
  });

  // What the addon sends: keys of [A-Za-z0-9._-] (its sanitize_header_name), each a text, a date or a list of URLs.
  const key = fc.stringMatching(/^[A-Za-z_.-][A-Za-z0-9._-]{0,10}$/);
  const text = fc.string({ unit: "grapheme", maxLength: 12 });
  const value = fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 3 }), fc.record({ value: text, unix: fc.nat() }));
  const body = fc.dictionary(key, value, { maxKeys: 6 });

  test("the addon's bodies never throw; as JSON or as the same keys in a form, the same answers", () => {
    fc.assert(
      fc.property(body, (keys) => {
        const asJson = read(JSON.stringify(keys), JSON_TYPE);
        const asForm = read(httpBuildQuery(keys), FORM_TYPE);
        assert.deepEqual(asForm.answers, asJson.answers);
        for (const answer of asJson.answers) assert.ok(Object.hasOwn(keys, answer.key));
      }),
      { numRuns: 500 },
    );
  });
});

/** PHP's http_build_query($keys, '', '&') for these shapes (urlencode: "+" for a space). */
function httpBuildQuery(keys: Record<string, unknown>): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
  const pairs: string[] = [];
  const add = (name: string, item: unknown): void => {
    if (typeof item === "object" && item !== null) for (const [sub, inner] of Object.entries(item)) add(`${name}[${sub}]`, inner);
    else pairs.push(`${encode(name)}=${encode(String(item))}`);
  };
  for (const [name, item] of Object.entries(keys)) add(name, item);
  return pairs.join("&");
}
