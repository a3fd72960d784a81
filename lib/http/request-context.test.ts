import assert from "node:assert/strict";
import { test } from "node:test";
import { clientIp, normaliseIp, requestIdFrom } from "./request-context";

const forwarded = (value: string) => new Headers({ "x-forwarded-for": value });

test("with no trusted proxy the client is the last X-Forwarded-For entry (the socket's, set by serve.mjs)", () => {
  assert.equal(clientIp(forwarded("127.0.0.1"), 0), "127.0.0.1");
  assert.equal(clientIp(forwarded("6.6.6.6, 127.0.0.1"), 0), "127.0.0.1");
});

test("each trusted hop moves one entry to the left, never past the first", () => {
  assert.equal(clientIp(forwarded("6.6.6.6, 203.0.113.9, 10.0.0.2"), 1), "203.0.113.9");
  assert.equal(clientIp(forwarded("6.6.6.6, 203.0.113.9, 10.0.0.2"), 2), "6.6.6.6");
  assert.equal(clientIp(forwarded("203.0.113.9"), 3), "203.0.113.9");
  assert.equal(clientIp(new Headers(), 0), "unknown");
});

test("addresses are canonical: mapped IPv4 unwrapped, IPv6 cut to its /64", () => {
  assert.equal(normaliseIp("::ffff:192.0.2.1"), "192.0.2.1");
  assert.equal(normaliseIp("2001:db8:0:1:aaaa::1"), "2001:db8:0:1::/64");
  assert.equal(normaliseIp("2001:0db8:0000:0001:ffff:ffff:ffff:ffff"), "2001:db8:0:1::/64");
  assert.equal(normaliseIp("::1"), "0:0:0:0::/64");
  assert.equal(normaliseIp("not an address"), "invalid:not an address");
});

test("a caller's X-Request-Id is kept only when it is safe to log and echo", () => {
  assert.equal(requestIdFrom(new Headers({ "x-request-id": "abc-12345678" })), "abc-12345678");
  assert.match(requestIdFrom(new Headers({ "x-request-id": "bad id\twith spaces" })), /^[0-9a-f-]{36}$/);
  assert.match(requestIdFrom(new Headers({ "x-request-id": "x".repeat(300) })), /^[0-9a-f-]{36}$/);
  assert.match(requestIdFrom(new Headers()), /^[0-9a-f-]{36}$/);
});
