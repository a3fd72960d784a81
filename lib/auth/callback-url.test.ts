import assert from "node:assert/strict";
import { test } from "node:test";
import { safeCallbackUrl } from "./callback-url";

test("safeCallbackUrl keeps same-site paths and turns everything else into /", () => {
  const cases: [unknown, string][] = [
    ["/t/demo/leads?q=ada", "/t/demo/leads?q=ada"],
    ["/", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/path", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["", "/"],
    [undefined, "/"],
    [["/t/demo"], "/"],
  ];
  for (const [input, expected] of cases) assert.equal(safeCallbackUrl(input), expected, JSON.stringify(input));
});
