import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LIMITS } from "../leads/lead-input-schema";
import { ApiError } from "./api-error";
import { readFields } from "./read-body";

const URL = "http://localhost/api/method/crm.api.leads.create_lead";
const LIMIT = LIMITS.bodyBytes;

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(URL, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

const json = (body: string | Uint8Array<ArrayBuffer>, type = "application/json") =>
  post(typeof body === "string" ? new TextEncoder().encode(body) : body, { "content-type": type });

/** A body of `chunks` chunks of `size` bytes, sent without a content-length; counts what was pulled. */
function streamed(chunks: number, size: number, type = "application/json") {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === chunks) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { request: post(stream, { "content-type": type }), state };
}

async function assertApiError(promise: Promise<unknown>, status: number, error: string | RegExp, category: string) {
  await assert.rejects(promise, (thrown: unknown) => {
    assert.ok(thrown instanceof ApiError, `expected an ApiError, got ${String(thrown)}`);
    assert.equal(thrown.status, status);
    assert.equal(thrown.category, category);
    if (typeof error === "string") assert.equal(thrown.error, error);
    else assert.match(thrown.error, error);
    return true;
  });
}

describe("readFields: supported bodies", () => {
  test("JSON: the object's fields in the order sent, values untouched", async () => {
    const body = JSON.stringify({ name: "Ada", visits: 3, vip: true, nothing: null, nested: { a: 1 }, list: [1] });
    assert.deepEqual(await readFields(json(body), LIMIT), [
      ["name", "Ada"],
      ["visits", 3],
      ["vip", true],
      ["nothing", null],
      ["nested", { a: 1 }],
      ["list", [1]],
    ]);
  });

  test("JSON: media type parameters and case are ignored, a UTF-8 BOM is accepted", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"name":"Zoë"}')]);
    assert.deepEqual(await readFields(json(bom, "Application/JSON; charset=UTF-8"), LIMIT), [["name", "Zoë"]]);
  });

  test("JSON: a __proto__ key is returned as a plain field", async () => {
    assert.deepEqual(await readFields(json('{"__proto__":"x","name":"Ada"}'), LIMIT), [
      ["__proto__", "x"],
      ["name", "Ada"],
    ]);
  });

  test("urlencoded: fields in order, + and percent escapes decoded, repeats kept", async () => {
    const request = post(new TextEncoder().encode("name=Ada+Lovelace&email=ada%40example.com&empty=&name=Again"), {
      "content-type": "application/x-www-form-urlencoded",
    });
    assert.deepEqual(await readFields(request, LIMIT), [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["empty", ""],
      ["name", "Again"],
    ]);
  });

  test("multipart: text fields as strings and files as File objects", async () => {
    const form = new FormData();
    form.append("name", "Ada Lovelace");
    form.append("note", "héllo");
    form.append("cv", new File(["%PDF"], "cv.pdf", { type: "application/pdf" }));
    const fields = await readFields(post(form), LIMIT);
    assert.deepEqual(fields.slice(0, 2), [
      ["name", "Ada Lovelace"],
      ["note", "héllo"],
    ]);
    const [name, file] = fields[2]!;
    assert.equal(name, "cv");
    assert.ok(file instanceof File);
    assert.equal(file.name, "cv.pdf");
  });
});

describe("readFields: 415 for other media types", () => {
  const SEND = "send application/json, multipart/form-data, application/x-www-form-urlencoded";
  const cases: [string, Record<string, string>, string][] = [
    ["text/plain", { "content-type": "text/plain" }, `Unsupported content type "text/plain"; ${SEND}`],
    ["text/plain with charset", { "content-type": "text/plain; charset=utf-8" }, `Unsupported content type "text/plain"; ${SEND}`],
    ["application/xml", { "content-type": "application/xml" }, `Unsupported content type "application/xml"; ${SEND}`],
    [
      "a JSON-like type",
      { "content-type": "application/merge-patch+json" },
      `Unsupported content type "application/merge-patch+json"; ${SEND}`,
    ],
    ["no content type", {}, `Unsupported content type; ${SEND}`],
  ];
  for (const [title, headers, error] of cases) {
    test(`${title} → 415, the body left unread`, async () => {
      const request = post(new TextEncoder().encode('{"name":"Ada"}'), headers);
      await assertApiError(readFields(request, LIMIT), 415, error, "Unsupported media type");
      assert.equal(request.bodyUsed, false);
    });
  }
});

describe("readFields: 400 for unreadable bodies", () => {
  const notJson = ["{", '{"name": "Ada",}', "", "name=Ada", "{'name': 'Ada'}"];
  for (const body of notJson) {
    test(`malformed JSON ${JSON.stringify(body)} → 400`, async () => {
      await assertApiError(readFields(json(body), LIMIT), 400, "The request body is not valid JSON", "Bad request");
    });
  }

  const notObjects = ["[]", '[{"name":"Ada"}]', "null", "42", '"Ada"', "true"];
  for (const body of notObjects) {
    test(`JSON ${body} (not an object) → 400`, async () => {
      await assertApiError(readFields(json(body), LIMIT), 400, "The JSON body must be an object of fields", "Bad request");
    });
  }

  const invalidUtf8: [string, string][] = [
    ["application/json", "application/json"],
    ["urlencoded", "application/x-www-form-urlencoded"],
  ];
  for (const [label, type] of invalidUtf8) {
    test(`${label} with invalid UTF-8 bytes → 400`, async () => {
      const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"A'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
      await assertApiError(readFields(json(bytes, type), LIMIT), 400, "The request body is not valid UTF-8", "Bad request");
    });
  }

  test("malformed multipart → 400", async () => {
    const request = post(new TextEncoder().encode("this is not multipart"), {
      "content-type": "multipart/form-data; boundary=XYZ",
    });
    await assertApiError(readFields(request, LIMIT), 400, "The multipart/form-data body is malformed", "Bad request");
  });

  test("multipart without a boundary → 400", async () => {
    const request = post(new TextEncoder().encode("--x\r\n"), { "content-type": "multipart/form-data" });
    await assertApiError(readFields(request, LIMIT), 400, "The multipart/form-data body is malformed", "Bad request");
  });

  test("a body stream that fails → 400", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull() {
        throw new Error("connection reset");
      },
    });
    const request = post(stream, { "content-type": "application/json" });
    await assertApiError(readFields(request, LIMIT), 400, "The request body could not be read", "Bad request");
  });
});

describe("readFields: 413 over the size limit", () => {
  const TOO_LARGE = `Request body is larger than ${LIMIT / 1024} KiB`;

  test("a declared content-length over the limit → 413 before any byte is read", async () => {
    const { request, state } = streamed(1, 10);
    request.headers.set("content-length", String(LIMIT + 1));
    await assertApiError(readFields(request, LIMIT), 413, TOO_LARGE, "Payload too large");
    assert.equal(state.pulled, 0);
  });

  test("a streamed body over the limit without content-length → 413, reading stops early", async () => {
    const { request, state } = streamed(1_000, 16 * 1024);
    assert.equal(request.headers.get("content-length"), null);
    await assertApiError(readFields(request, LIMIT), 413, TOO_LARGE, "Payload too large");
    assert.ok(state.pulled <= LIMIT / (16 * 1024) + 2, `read ${state.pulled} chunks of 16 KiB`);
    assert.equal(state.cancelled, true);
  });

  test("a content-length that understates the body does not get past the limit", async () => {
    const { request } = streamed(10, 16 * 1024);
    request.headers.set("content-length", "100");
    await assertApiError(readFields(request, LIMIT), 413, TOO_LARGE, "Payload too large");
  });

  test("exactly the limit is read; one byte more is refused", async () => {
    const body = (size: number) => `{"name":"${"a".repeat(size - 11)}"}`;
    assert.equal(body(LIMIT).length, LIMIT);
    const fields = await readFields(json(body(LIMIT)), LIMIT);
    assert.equal((fields[0]![1] as string).length, LIMIT - 11);
    await assertApiError(readFields(json(body(LIMIT + 1)), LIMIT), 413, TOO_LARGE, "Payload too large");
  });

  test("the limit applies to urlencoded and multipart bodies too", async () => {
    const form = new FormData();
    form.append("notes", "x".repeat(LIMIT));
    await assertApiError(readFields(post(form), LIMIT), 413, TOO_LARGE, "Payload too large");
    const { request } = streamed(5, 16 * 1024, "application/x-www-form-urlencoded");
    await assertApiError(readFields(request, LIMIT), 413, TOO_LARGE, "Payload too large");
  });
});
