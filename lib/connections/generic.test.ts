import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { RawField } from "../http/read-body";
import { UnknownPayload } from "./answers";
import { MAX_DEPTH, parseGenericFields, parseGenericJson } from "./generic";

const pairs = (answers: { key: string; value: unknown }[]) => answers.map(({ key, value }) => [key, value]);

/** The fields readFields gives for an urlencoded body (lib/http/read-body.ts). */
const urlencoded = (body: string): RawField[] => [...new URLSearchParams(body)];

describe("Generic JSON", () => {
  test("a nested object answers by path; arrays of plain values stay lists; arrays of objects answer by index", () => {
    const delivery = parseGenericJson({
      contact: { name: "Ada Lovelace", email: "ada@example.com", phone: null },
      company: { name: "Analytical Engines", size: 12 },
      interests: ["Engines", 42, null, ""],
      items: [{ sku: "A1" }, "loose"],
      consent: true,
      empty: [],
      blank: "",
    });
    assert.deepEqual(pairs(delivery.answers), [
      ["contact.name", "Ada Lovelace"],
      ["contact.email", "ada@example.com"],
      ["company.name", "Analytical Engines"],
      ["company.size", 12],
      ["interests", ["Engines", "42"]],
      ["items.0.sku", "A1"],
      ["items.1", "loose"],
      ["consent", true],
    ]);
    assert.ok(delivery.answers.every((answer) => answer.label === answer.key && answer.type === undefined));
    assert.deepEqual(delivery.meta, { format: "json" });
  });

  test("the submission id comes from the configured key or path", () => {
    const body = { submission: { id: "sub_81", at: [{ ref: 7 }] }, id: "top", email: "ada@example.com" };
    assert.equal(parseGenericJson(body, { submissionIdPath: "id" }).submissionId, "top");
    assert.equal(parseGenericJson(body, { submissionIdPath: "submission.id" }).submissionId, "sub_81");
    assert.equal(parseGenericJson(body, { submissionIdPath: "submission.at.0.ref" }).submissionId, "7");
  });

  test("without one (or when the path is absent or not text) it is the SHA-256 of the body, the same whatever the key order", () => {
    const a = parseGenericJson({ name: "Ada", nested: { x: 1, y: [1, 2] } }).submissionId;
    const b = parseGenericJson({ nested: { y: [1, 2], x: 1 }, name: "Ada" }, { submissionIdPath: "missing.path" }).submissionId;
    const c = parseGenericJson({ name: "Ada", nested: { x: 1, y: [2, 1] } }, { submissionIdPath: "nested" }).submissionId;
    assert.match(a!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  test("anything but an object, and nesting deeper than the limit, is refused", () => {
    for (const body of [null, 3, "text", [{ name: "Ada" }], true]) {
      assert.throws(() => parseGenericJson(body), UnknownPayload);
    }
    let deep: unknown = "bottom";
    for (let i = 0; i <= MAX_DEPTH + 1; i++) deep = { level: deep };
    assert.throws(() => parseGenericJson(deep as object), /nested at most/);
    let deepest: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deepest = [deepest];
    assert.throws(() => parseGenericJson({ deepest }), UnknownPayload);
  });
});

describe("Generic urlencoded and multipart fields", () => {
  test("fields in the order sent; a repeated name or a [] name is a list", () => {
    const delivery = parseGenericFields(
      urlencoded("name=Ada+Lovelace&email=ada%40example.com&interests[]=Engines&topic=a&topic=b&utm_source=news&empty="),
    );
    assert.deepEqual(pairs(delivery.answers), [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["interests", ["Engines"]],
      ["topic", ["a", "b"]],
      ["utm_source", "news"],
    ]);
    assert.deepEqual(delivery.meta, { format: "form" });
  });

  test("a file is named, not kept; an unused file input is no answer", () => {
    const delivery = parseGenericFields([
      ["cv", new File(["%PDF"], "cv.pdf")],
      ["photo", new File([], "")],
    ]);
    assert.deepEqual(pairs(delivery.answers), [["cv", "[file not stored: cv.pdf]"]]);
  });

  test("the submission id is the configured field, else a digest that ignores the order of names", () => {
    assert.equal(parseGenericFields(urlencoded("entry_id=981&name=Ada"), { submissionIdPath: "entry_id" }).submissionId, "981");
    const a = parseGenericFields(urlencoded("name=Ada&topic=a&topic=b")).submissionId;
    const b = parseGenericFields(urlencoded("topic=a&name=Ada&topic=b")).submissionId;
    const c = parseGenericFields(urlencoded("topic=b&name=Ada&topic=a")).submissionId;
    assert.match(a!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a, b);
    assert.notEqual(a, c);
  });
});

describe("any input gives a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };

  test("any JSON value, with or without a submission id path", () => {
    const path = fc.option(fc.oneof(fc.string(), fc.constantFrom("id", "a.b", "0", "a.0")), { nil: undefined });
    fc.assert(
      fc.property(fc.jsonValue(), path, (body, submissionIdPath) => check(() => parseGenericJson(body, { submissionIdPath }))),
      { numRuns: 500 },
    );
  });

  test("any fields", () => {
    const fields = fc.array(fc.tuple(fc.string(), fc.oneof(fc.string(), fc.jsonValue())));
    fc.assert(
      fc.property(fields, fc.option(fc.string(), { nil: undefined }), (sent, submissionIdPath) =>
        check(() => parseGenericFields(sent, { submissionIdPath })),
      ),
      { numRuns: 500 },
    );
  });
});
