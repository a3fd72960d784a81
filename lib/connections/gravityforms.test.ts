import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { UnknownPayload, type Delivery } from "./answers";
import {
  GRAVITYFORMS_FORM_EXAMPLE,
  GRAVITYFORMS_MAPPING,
  gravityFormsExample,
  gravityFormsJsonBody,
} from "./fixtures/gravityforms-example";
import { formBody } from "./fixtures/php-form-body";
import { parseGravityFormsBody, parseGravityFormsFields, parseGravityFormsJson } from "./gravityforms";
import { mapAnswers, NO_NAME } from "./map-answers";

// The fixture is an entry composed from Gravity Forms' Entry Object
// (https://docs.gravityforms.com/entry-object/) and sent as the Webhooks Add-On sends it
// (Request Body "All Fields"): see fixtures/gravityforms-example.ts for what is documented
// and what is ours.

const triples = (delivery: Delivery) => delivery.answers.map(({ key, label, type, value }) => [key, label, type, value]);

const EXPECTED_META = {
  form_id: "30",
  date_created: "2023-09-01 19:30:44",
  date_updated: "2023-09-01 19:30:44",
  is_starred: "0",
  is_read: "0",
  ip: "203.0.113.7",
  source_url: "https://rocket.test/contact/",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Safari/605.1.15",
  currency: "USD",
  status: "active",
  source_id: "12",
};

describe("Gravity Forms' entry, Request Format JSON, Request Body All Fields", () => {
  const delivery = parseGravityFormsJson(gravityFormsExample());

  test("the submission id is the entry's id; its other properties are metadata, empty ones left out", () => {
    assert.equal(delivery.submissionId, "rocket.test#159");
    assert.deepEqual(delivery.meta, EXPECTED_META);
  });

  test("each input id with a value is one answer, its id its key and label, untyped; empty inputs are no answer", () => {
    // A JSON object's integer-like keys ("2") come before the others once parsed, in any JSON reader of JavaScript.
    assert.deepEqual(triples(delivery), [
      ["2", "2", undefined, "ada@example.com"],
      ["3", "3", undefined, "+32 491 22 33 44"],
      ["5", "5", undefined, "https://example.com"],
      ["6", "6", undefined, "Please call me back.\nThanks!"],
      ["1.3", "1.3", undefined, "Ada"],
      ["1.6", "1.6", undefined, "Lovelace"],
      ["4.1", "4.1", undefined, "Newsletter"],
    ]);
  });

  test("unmapped, no answer gives a name: the delivery needs mapping; nothing is read from an id", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, NO_NAME);
    assert.ok(mapped.answers.every((answer) => answer.target === "extra"));
  });

  test("mapped once by input id (1.3 first name, 1.6 last name, 2 email, 3 phone, 5 website): the lead's fields", () => {
    const mapped = mapAnswers(delivery.answers, GRAVITYFORMS_MAPPING);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["website", "https://example.com"],
      ["6", "Please call me back.\nThanks!"],
      ["4.1", "Newsletter"],
    ]);
  });

  test("the body as the add-on posts it (json_encode: compact, \\/ escaped) reads the same", async () => {
    const body = formBody(gravityFormsJsonBody(), "application/json");
    assert.deepEqual(await parseGravityFormsBody(body), delivery);
  });
});

describe("Request Format FORM: the same entry urlencoded", () => {
  test("the same answers (in the order sent), the same id and metadata; the nulls http_build_query left out are absent anyway", async () => {
    const form = await parseGravityFormsBody(formBody(GRAVITYFORMS_FORM_EXAMPLE));
    const json = parseGravityFormsJson(gravityFormsExample());
    assert.equal(form.submissionId, "rocket.test#159");
    assert.deepEqual(form.meta, json.meta);
    assert.deepEqual(
      form.answers.map((answer) => answer.key),
      ["1.3", "1.6", "2", "3", "4.1", "5", "6"],
    );
    const byKey = (d: Delivery) => [...d.answers].sort((a, b) => (a.key < b.key ? -1 : 1));
    assert.deepEqual(byKey(form), byKey(json));
    assert.deepEqual(mapAnswers(form.answers, GRAVITYFORMS_MAPPING).fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["4.1", "Newsletter"],
      ["website", "https://example.com"],
      ["6", "Please call me back.\nThanks!"],
    ]);
  });

  test("multipart/form-data is read too; a name sent twice is one answer holding the list", async () => {
    const form = new FormData();
    form.append("id", "160");
    form.append("7", "a");
    form.append("7", "b");
    const request = new Request("http://x/", { method: "POST", body: form });
    const contentType = request.headers.get("content-type")!;
    const delivery = await parseGravityFormsBody(formBody(new Uint8Array(await request.arrayBuffer()), contentType));
    assert.equal(delivery.submissionId, "160");
    assert.deepEqual(triples(delivery), [["7", "7", undefined, ["a", "b"]]]);
  });
});

describe("Request Body Select Fields: the keys the admin names", () => {
  test("a flat object read by its keys: our own names map without any mapping; Entry ID under id is the submission's id", () => {
    const delivery = parseGravityFormsJson({
      id: "161",
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      utm_source: "newsletter",
      comment: "",
    });
    assert.equal(delivery.submissionId, "161");
    assert.deepEqual(delivery.meta, {});
    assert.deepEqual(mapAnswers(delivery.answers).fields, [
      ["name", "Grace Hopper"],
      ["email", "grace@example.com"],
      ["utm_source", "newsletter"],
    ]);
  });

  test("without an id there is no submission id (the intake then uses the body's digest)", () => {
    assert.equal(parseGravityFormsJson({ email: "a@example.com" }).submissionId, null);
    assert.equal(parseGravityFormsFields([["email", "a@example.com"]]).submissionId, null);
  });

  test('values as sent: numbers, true/false, lists of texts; null, "" and empty lists are no answer; any key is a key', () => {
    const delivery = parseGravityFormsJson(
      JSON.parse('{"id": 162, "a": 3, "b": true, "c": ["x", 2, "", null], "d": [], "e": null, "constructor": "kept", "__proto__": "too"}'),
    );
    assert.equal(delivery.submissionId, "162");
    assert.deepEqual(triples(delivery), [
      ["a", "a", undefined, 3],
      ["b", "b", undefined, true],
      ["c", "c", undefined, ["x", "2"]],
      ["constructor", "constructor", undefined, "kept"],
      ["__proto__", "__proto__", undefined, "too"],
    ]);
    assert.equal(Object.getPrototypeOf(delivery.meta), Object.prototype);
  });

  test("Select Fields keys named like entry properties (status, ip, currency) are the admin's questions: answers", () => {
    const delivery = parseGravityFormsJson({ id: "163", status: "Looking", ip: "n/a", currency: "EUR", name: "Ada Lovelace" });
    assert.equal(delivery.submissionId, "163");
    assert.deepEqual(
      delivery.answers.map((answer) => answer.key),
      ["status", "ip", "currency", "name"],
    );
  });

  test("the same entry id from two sites is two submissions: the id is scoped by the source URL's host", () => {
    const from = (site: string) =>
      parseGravityFormsJson({ id: "12", form_id: "1", source_url: `https://${site}/contact/`, "1": "Ada Lovelace" }).submissionId;
    assert.deepEqual([from("staging.example.com"), from("example.com")], ["staging.example.com#12", "example.com#12"]);
  });

  test("an entry property's value as text: a number, true/false as 1/0", () => {
    const delivery = parseGravityFormsJson({ id: 7, form_id: 3, is_starred: true, is_read: false, post_id: null, "1": "x" });
    assert.deepEqual(delivery.meta, { form_id: "3", is_starred: "1", is_read: "0" });
  });
});

function assertUnknown(read: () => unknown, message: RegExp): void {
  assert.throws(read, (error: unknown) => error instanceof UnknownPayload && message.test(error.message));
}

describe("unknown Gravity Forms shapes are refused, never guessed", () => {
  const json: [string, unknown, RegExp][] = [
    ["a list", [gravityFormsExample()], /is a JSON object/],
    ["text", "entry", /is a JSON object/],
    ["null", null, /is a JSON object/],
    ["an empty object", {}, /this one is empty/],
    ["a value that is an object", { id: "1", "1.3": { first: "Ada" } }, /value 2 is not text/],
    ["a list holding an object", { "1": ["a", {}] }, /value 1 is not text/],
    ["an id that is not a whole number", { id: "abc", "1": "x" }, /entry id is a whole number, not "abc"/],
    ["an id of 0", { id: 0, "1": "x" }, /whole number, not "0"/],
    ["a fractional id", { id: 1.5, "1": "x" }, /whole number, not "1.5"/],
    ["an id that is an object", { id: { n: 1 } }, /entry's id is text or a number, not object/],
    ["a form_id that is a list", { form_id: [30] }, /entry's form_id is text or a number, not object/],
    ["a Tally body", { eventType: "FORM_RESPONSE", data: { fields: [] } }, /value 2 is not text/],
  ];
  for (const [name, body, message] of json) test(name, () => assertUnknown(() => parseGravityFormsJson(body), message));

  test("a FORM body with a file, or with nothing in it", async () => {
    assertUnknown(() => parseGravityFormsFields([["1", new File(["x"], "cv.pdf")]]), /text values, not files/);
    assertUnknown(() => parseGravityFormsFields([]), /this one is empty/);
    await assert.rejects(parseGravityFormsBody(formBody("")), UnknownPayload);
  });
});

describe("any body gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (read: () => Delivery) => {
    try {
      assert.ok(Array.isArray(read().answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const key = fc.oneof(fc.string(), fc.constantFrom("id", "form_id", "1.3", "2", "constructor", "__proto__", "toString", "hasOwnProperty"));

  test("any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => check(() => parseGravityFormsJson(body))),
      { numRuns: 500 },
    );
  });

  test("any object of any JSON values", () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue()), (body) => check(() => parseGravityFormsJson(body))),
      { numRuns: 500 },
    );
  });

  test("entry-shaped bodies (text, numbers, nulls; a whole-number id) never throw, and every answer is a key sent", () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const entry = fc.record({
      id: fc.integer({ min: 1 }),
      fields: fc.dictionary(
        key.filter((k) => k !== "id"),
        scalar,
      ),
    });
    fc.assert(
      fc.property(entry, ({ id, fields }) => {
        const delivery = parseGravityFormsJson({ id, ...fields });
        assert.equal(delivery.submissionId, String(id));
        assert.ok(delivery.answers.every((answer) => Object.hasOwn(fields, answer.key) && answer.key === answer.label));
      }),
      { numRuns: 500 },
    );
  });

  test("any FORM fields", () => {
    const value = fc.oneof({ arbitrary: fc.string(), weight: 9 }, { arbitrary: fc.constant(new Blob(["x"])), weight: 1 });
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 12 }), (fields) => check(() => parseGravityFormsFields(fields))),
      { numRuns: 500 },
    );
  });
});
