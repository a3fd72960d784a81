import assert from "node:assert/strict";
import { describe, test, type TestContext } from "node:test";
import { ApiError, AuthenticationError, badRequest, validationError } from "./api-error";
import { errorResponse, jsonResponse, methodNotAllowed, respond, toApiError } from "./envelope";

/** Silences the JSON logger's stderr (warn and error lines) for one test and returns what was logged. */
function captureConsoleError(t: TestContext): () => string {
  const logged = t.mock.method(process.stderr, "write", () => true);
  return () => logged.mock.calls.map((call) => String(call.arguments[0])).join("\n");
}

async function envelope(response: Response) {
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(response.headers.get("cache-control"), "no-store");
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("ApiError helpers", () => {
  const cases: [string, ApiError, number, string][] = [
    ["AuthenticationError", new AuthenticationError("Invalid API key"), 401, "Authentication failed"],
    ["validationError", validationError("Name is required"), 422, "Validation failed"],
    ["badRequest", badRequest("The request body is not valid JSON"), 400, "Bad request"],
  ];
  for (const [name, error, status, category] of cases) {
    test(`${name} → ${status} "${category}"`, () => {
      assert.equal(error.status, status);
      assert.equal(error.category, category);
      assert.equal(error.message, error.error);
      assert.ok(error instanceof Error);
    });
  }
});

describe("toApiError and errorResponse", () => {
  test("an ApiError is answered as itself, in the spec's envelope", async () => {
    const error = new AuthenticationError("API key required");
    assert.equal(toApiError(error), error);
    assert.deepEqual(await envelope(errorResponse(error)), {
      status: 401,
      body: { success: false, error: "API key required", message: "Authentication failed" },
    });
  });

  test("an ApiError's extra headers are sent", () => {
    const response = errorResponse(new ApiError(429, "Slow down", "Too many requests", { "Retry-After": "9" }));
    assert.equal(response.status, 429);
    assert.equal(response.headers.get("retry-after"), "9");
  });

  const unavailable: [string, unknown][] = [
    ["a Prisma P1001", Object.assign(new Error("Can't reach database server at db:5432"), { code: "P1001" })],
    ["a locked SQLite database", new Error("SQLITE_BUSY: database is locked")],
    ["an initialization error", Object.assign(new Error("init"), { name: "PrismaClientInitializationError" })],
  ];
  for (const [title, thrown] of unavailable) {
    test(`${title} → 503 with Retry-After`, async (t) => {
      captureConsoleError(t);
      const response = errorResponse(thrown);
      assert.equal(response.headers.get("retry-after"), "5");
      assert.deepEqual(await envelope(response), {
        status: 503,
        body: { success: false, error: "The database is unavailable; retry shortly", message: "Service unavailable" },
      });
    });
  }

  const unexpected: [string, unknown][] = [
    ["an Error carrying a secret", new Error("Unique constraint failed: value team_LEAKEDsecretVALUE123")],
    ["a TypeError", new TypeError("Cannot read properties of undefined (reading 'team_LEAKEDsecretVALUE123')")],
    ["a thrown string", "team_LEAKEDsecretVALUE123"],
    ["null", null],
    ["undefined", undefined],
    ["a unique violation", Object.assign(new Error("P2002 team_LEAKEDsecretVALUE123"), { code: "P2002" })],
  ];
  for (const [title, thrown] of unexpected) {
    test(`${title} → 500 with a generic text, nothing leaked to the body or the log`, async (t) => {
      const logged = captureConsoleError(t);
      const response = errorResponse(thrown);
      const text = await response.clone().text();
      assert.deepEqual(await envelope(response), {
        status: 500,
        body: { success: false, error: "Internal server error", message: "Server error" },
      });
      assert.ok(!text.includes("LEAKED") && !text.includes("at "), text);
      assert.ok(logged().length > 0, "the failure must be logged");
      assert.ok(!logged().includes("LEAKED"), logged());
    });
  }

  test("the log names the error class", (t) => {
    const logged = captureConsoleError(t);
    toApiError(new RangeError("boom"));
    assert.match(logged(), /RangeError/);
  });
});

describe("respond, jsonResponse and methodNotAllowed", () => {
  const request = new Request("http://localhost/api/x", { method: "POST", headers: { "X-Request-Id": "envelope-test-1" } });

  test("respond echoes the request id in X-Request-Id", async () => {
    const response = await respond(request, async () => jsonResponse({ success: true }, 201));
    assert.equal(response.headers.get("x-request-id"), "envelope-test-1");
  });

  test("respond passes a handler's response through", async () => {
    const response = await respond(request, async () => jsonResponse({ success: true }, 201));
    assert.deepEqual(await envelope(response), { status: 201, body: { success: true } });
  });

  test("respond answers a thrown ApiError with its envelope", async () => {
    const response = await respond(request, async () => {
      throw validationError("Name is required");
    });
    assert.deepEqual(await envelope(response), {
      status: 422,
      body: { success: false, error: "Name is required", message: "Validation failed" },
    });
  });

  test("respond answers an unexpected failure with 500", async (t) => {
    captureConsoleError(t);
    const response = await respond(request, async () => {
      throw new Error("kaboom");
    });
    assert.equal(response.status, 500);
  });

  test("jsonResponse adds headers and keeps no-store", async () => {
    const response = jsonResponse({ ok: 1 }, 200, { "X-Extra": "yes" });
    assert.equal(response.headers.get("x-extra"), "yes");
    assert.deepEqual(await envelope(response), { status: 200, body: { ok: 1 } });
  });

  test("methodNotAllowed → 405 with Allow and the envelope", async () => {
    const response = await methodNotAllowed("POST")(request);
    assert.equal(response.headers.get("allow"), "POST");
    assert.deepEqual(await envelope(response), {
      status: 405,
      body: { success: false, error: "Method not allowed; use POST", message: "Method not allowed" },
    });
  });
});
