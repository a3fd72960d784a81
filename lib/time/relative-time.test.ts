import assert from "node:assert/strict";
import { test } from "node:test";
import { relativeTime } from "./relative-time";

const NOW = new Date("2026-11-24T12:00:00Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

test("words the distance in the largest unit that fits, past and future", () => {
  assert.equal(relativeTime(at(-10), NOW), "just now");
  assert.equal(relativeTime(at(30), NOW), "in less than a minute");
  assert.equal(relativeTime(at(-5 * 60), NOW), "5 minutes ago");
  assert.equal(relativeTime(at(-2 * 3600 - 59), NOW), "2 hours ago");
  assert.equal(relativeTime(at(3600), NOW), "in 1 hour");
  assert.equal(relativeTime(at(-24 * 3600), NOW), "yesterday");
  assert.equal(relativeTime(at(7 * 24 * 3600), NOW), "next week");
  assert.equal(relativeTime(at(3 * 24 * 3600), NOW), "in 3 days");
  assert.equal(relativeTime(at(-400 * 24 * 3600), NOW), "last year");
});

test("rounds within the unit: a key rolled with 7 days left a moment ago still reads 7 days", () => {
  assert.equal(relativeTime(at(7 * 24 * 3600 - 5), NOW), "in 7 days");
  assert.equal(relativeTime(at(-(2 * 3600 + 40 * 60)), NOW), "3 hours ago");
});
