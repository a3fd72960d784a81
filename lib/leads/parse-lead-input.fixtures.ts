import assert from "node:assert/strict";
import { ApiError } from "../http/api-error";
import type { RawField } from "../http/read-body";
import { parseLeadInput } from "./parse-lead-input";

// Shared helpers of parseLeadInput's tests (parse-lead-input-*.test.ts). Not a test file itself.

/** Asserts that parsing fails with a 422 "Validation failed" whose text is exactly `error`. */
export function assertRejected(fields: RawField[], error: string | RegExp): void {
  assert.throws(
    () => parseLeadInput(fields),
    (thrown: unknown) => {
      assert.ok(thrown instanceof ApiError, `expected an ApiError, got ${String(thrown)}`);
      assert.equal(thrown.status, 422);
      assert.equal(thrown.category, "Validation failed");
      if (typeof error === "string") assert.equal(thrown.error, error);
      else assert.match(thrown.error, error);
      return true;
    },
  );
}

export const withName = (...fields: RawField[]): RawField[] => [["name", "Ada Lovelace"], ...fields];
