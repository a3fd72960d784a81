import assert from "node:assert/strict";
import { test } from "node:test";
import { originProblem } from "./same-origin";

const headers = (entries: Record<string, string>) => new Headers(entries);

test("an Origin naming the host the request was sent to is this site", () => {
  assert.equal(originProblem(headers({ origin: "http://localhost:5100", host: "localhost:5100" })), null);
  assert.equal(
    originProblem(headers({ origin: "https://Leads.Example.com", "x-forwarded-host": "leads.example.com", host: "10.0.0.5:3000" })),
    null,
  );
});

test("a request without Origin is refused (browsers always send one on POST)", () => {
  assert.equal(originProblem(headers({ host: "localhost:5100" })), "missing");
  assert.equal(originProblem(headers({ origin: "", host: "localhost:5100" })), "missing");
});

test("another site, another port, the opaque origin and garbage are foreign", () => {
  assert.equal(originProblem(headers({ origin: "https://evil.example", host: "localhost:5100" })), "foreign");
  assert.equal(originProblem(headers({ origin: "http://localhost:5101", host: "localhost:5100" })), "foreign");
  assert.equal(originProblem(headers({ origin: "null", host: "localhost:5100" })), "foreign");
  assert.equal(originProblem(headers({ origin: "not a url", host: "localhost:5100" })), "foreign");
  assert.equal(originProblem(headers({ origin: "http://localhost:5100" })), "foreign");
});

test("the forwarded host wins over Host, as in Next's own check", () => {
  assert.equal(
    originProblem(headers({ origin: "http://localhost:5100", "x-forwarded-host": "leads.example.com", host: "localhost:5100" })),
    "foreign",
  );
});
