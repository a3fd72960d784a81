import assert from "node:assert/strict";
import { test } from "node:test";
import { waitingTime } from "./lead-waiting";

const NOW = new Date("2026-11-24T12:00:00Z");
const before = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

test("words the wait in minutes, then hours, then days, rounded down", () => {
  assert.equal(waitingTime(before(0), NOW), "waiting 0 min");
  assert.equal(waitingTime(before(59), NOW), "waiting 0 min");
  assert.equal(waitingTime(before(5 * 60 + 30), NOW), "waiting 5 min");
  assert.equal(waitingTime(before(3600 - 1), NOW), "waiting 59 min");
  assert.equal(waitingTime(before(3600), NOW), "waiting 1 h");
  assert.equal(waitingTime(before(2 * 3600 + 59 * 60), NOW), "waiting 2 h");
  assert.equal(waitingTime(before(47 * 3600 + 3599), NOW), "waiting 47 h");
  assert.equal(waitingTime(before(48 * 3600), NOW), "waiting 2 d");
  assert.equal(waitingTime(before(10 * 24 * 3600 + 5), NOW), "waiting 10 d");
});

test("a creation time after now (a skewed clock) reads as no wait", () => {
  assert.equal(waitingTime(new Date(NOW.getTime() + 90_000), NOW), "waiting 0 min");
});
