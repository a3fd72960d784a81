import assert from "node:assert/strict";
import { test } from "node:test";
import { safeCallbackUrl } from "./callback-url";
import { CALLBACK_URL_CASES } from "./callback-url-cases";

test("safeCallbackUrl keeps same-origin paths and turns every known bypass into /", () => {
  for (const { input, expected } of CALLBACK_URL_CASES) assert.equal(safeCallbackUrl(input), expected, JSON.stringify(input));
});

test("safeCallbackUrl refuses what is not a string", () => {
  for (const input of [undefined, null, 1, ["/t/demo"], { toString: () => "/t/demo" }]) assert.equal(safeCallbackUrl(input), "/");
});

test("whatever safeCallbackUrl returns stays on the origin it is resolved against", () => {
  for (const { input } of CALLBACK_URL_CASES) {
    const out = safeCallbackUrl(input);
    assert.ok(out.startsWith("/") && !out.startsWith("//"), JSON.stringify(out));
    assert.equal(new URL(out, "https://app.example").origin, "https://app.example", JSON.stringify(input));
  }
});
