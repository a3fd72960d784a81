import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatLeadId, parseLeadId } from "./lead-id";

describe("formatLeadId", () => {
  const cases: [number, string][] = [
    [1, "CRM-LEAD-00001"],
    [42, "CRM-LEAD-00042"],
    [99_999, "CRM-LEAD-99999"],
    [100_000, "CRM-LEAD-100000"],
    [1_234_567, "CRM-LEAD-1234567"],
  ];
  for (const [seq, id] of cases) {
    test(`${seq} → ${id}`, () => assert.equal(formatLeadId(seq), id));
  }
});

describe("parseLeadId", () => {
  const cases: [string, number | null][] = [
    ["CRM-LEAD-00001", 1],
    ["CRM-LEAD-00042", 42],
    ["CRM-LEAD-100000", 100_000],
    ["crm-lead-00007", 7],
    [" CRM-LEAD-00003 ", 3],
    ["CRM-LEAD-", null],
    ["CRM-LEAD-12a", null],
    ["LEAD-00001", null],
    ["CRM-LEAD-00001-x", null],
    ["", null],
  ];
  for (const [id, seq] of cases) {
    test(`${JSON.stringify(id)} → ${seq}`, () => assert.equal(parseLeadId(id), seq));
  }

  test("round-trips every formatted id", () => {
    for (const seq of [1, 9, 10, 12_345, 99_999, 100_000, 2_000_000]) {
      assert.equal(parseLeadId(formatLeadId(seq)), seq);
    }
  });
});
